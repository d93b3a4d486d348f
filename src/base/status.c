/* status.c - descriptions of the status codes in status.h, and the
   version of the library (version.h). */
#include "shufflebias/export.h"
#include "shufflebias/status.h"
#include "shufflebias/version.h"

SB_API const char *sb_status_str(int status)
{
    switch (status) {
    case SB_OK: return "success";
    case SB_EINVAL: return "invalid argument";
    case SB_ENOMEM: return "out of memory";
    case SB_EIO: return "input/output error";
    case SB_ENOTSUP: return "not supported";
    case SB_ENOTFOUND: return "not found";
    case SB_ERANGE: return "out of range";
    case SB_EINTR: return "interrupted";
    }
    return "unknown status";
}

SB_API const char *sb_version(void)
{
    return SB_VERSION_STRING;
}
