/*
 * status.h - status codes returned by every library function.
 *
 * Library code never prints and never exits: it returns one of these, and
 * only the command-line front turns them into messages and exit codes.
 */
#ifndef SB_STATUS_H
#define SB_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sb_status {
    SB_OK = 0,       /* success */
    SB_EINVAL = 1,   /* an argument is out of its documented range */
    SB_ENOMEM = 2,   /* an allocation failed */
    SB_EIO = 3,      /* reading or writing a file failed */
    SB_ENOTSUP = 4,  /* the operation is not possible for this input
                        (e.g. unit() asked of an enumerating source) */
    SB_ENOTFOUND = 5,/* a name that is in no registry */
    SB_ERANGE = 6,   /* a number too large for the representation */
    SB_EINTR = 7     /* the run was asked to stop; results are partial */
} sb_status;

/* A short lowercase description of 'status', never NULL. */
const char *sb_status_str(int status);

#ifdef __cplusplus
}
#endif

#endif /* SB_STATUS_H */
