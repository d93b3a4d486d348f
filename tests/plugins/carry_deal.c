/*
 * carry_deal.c - the dealer of carry_deal.h as a plug-in, so that the
 * command line (and scripts/power's measurement of its power, docs/power.md)
 * can run it: shufflebias test --plugin libcarry_deal.so --n 52.
 */
#include <shufflebias/plugin.h>

#include "carry_deal.h"

SB_PLUGIN(&carry_deal)
