/*
 * export.h - which functions the shared library lets a program see.
 *
 * libshufflebias is built with every symbol hidden but those marked
 * SB_API: the functions of session.h, sb_version, sb_status_str, and the
 * draws of rng.h that plug-ins and a program's own shuffles call.
 * Everything else is the library's inside and may change in any release.
 */
#ifndef SB_EXPORT_H
#define SB_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SB_API __attribute__((visibility("default")))
#else
#define SB_API
#endif

#endif /* SB_EXPORT_H */
