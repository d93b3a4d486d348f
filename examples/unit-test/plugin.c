/*
 * plugin.c - the same shuffles as a plug-in, for the 'shufflebias'
 * program (shufflebias test --plugin, shufflebias_add_test PLUGIN).  It
 * links no library: the draws are the program's, resolved when it loads
 * the plug-in.
 */
#include <shufflebias/plugin.h>

#include "my_shuffles.h"

SB_PLUGIN(&my_fair_shuffle, &my_swap_any)
