/* compiler.h - the attributes the code relies on, spelled once. */
#ifndef SBCDISK_COMMON_COMPILER_H
#define SBCDISK_COMMON_COMPILER_H

/* A result that carries an error (0 or -errno): ignoring it is a bug the compiler reports.
 * GCC does not accept a (void) cast as handling it, on purpose: check it or say why not
 * with a branch. */
#define MUST_CHECK __attribute__((warn_unused_result))

#endif
