/* shufflebias.h - the public API in one include. */
#ifndef SB_SHUFFLEBIAS_H
#define SB_SHUFFLEBIAS_H

#include "version.h"
#include "status.h"
#include "rng.h"
#include "shuffle.h"
#include "stat.h"
#include "report.h"
#include "exact.h"
#include "session.h"

#endif /* SB_SHUFFLEBIAS_H */
