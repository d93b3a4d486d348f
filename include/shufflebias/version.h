/*
 * version.h - which shufflebias this is.
 *
 * The numbers below are the project's version (CMakeLists.txt reads them
 * from here, so there is one place to change).  SB_VERSION_STRING is what
 * a program was compiled against; sb_version() is the library it runs
 * with, which may be a later one of the same major version.
 */
#ifndef SB_VERSION_H
#define SB_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define SB_VERSION_MAJOR 0
#define SB_VERSION_MINOR 1
#define SB_VERSION_PATCH 0
#define SB_VERSION_STRING "0.1.0"

/* The version of the library linked, as "MAJOR.MINOR.PATCH"; never NULL. */
const char *sb_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SB_VERSION_H */
