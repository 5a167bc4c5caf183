/* t.h - the smallest test harness: checks that report where they failed and carry on.
 * A test program exits 0 when all checks held, 1 when one failed, 77 to skip (meson's code). */
#ifndef SBCDISK_T_H
#define SBCDISK_T_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_failures;
static int t_checks;

#define T_SKIP 77

/* A step of a test's own setup that must work (0): the test ends at once when it does not. */
#define T_MUST(expr)                                                                       \
	do {                                                                               \
		if ((expr) != 0) {                                                         \
			fprintf(stderr, "%s:%d: setup failed: %s\n", __FILE__, __LINE__, #expr); \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

#define T_CHECK(cond)                                                                    \
	do {                                                                             \
		t_checks++;                                                              \
		if (!(cond)) {                                                           \
			t_failures++;                                                    \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                  \
		}                                                                        \
	} while (0)

#define T_EQ_INT(a, b)                                                                     \
	do {                                                                               \
		long long t_a_ = (long long)(a), t_b_ = (long long)(b);                    \
		t_checks++;                                                                \
		if (t_a_ != t_b_) {                                                        \
			t_failures++;                                                      \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, \
				__LINE__, #a, t_a_, #b, t_b_);                             \
		}                                                                          \
	} while (0)

#define T_EQ_STR(a, b)                                                                       \
	do {                                                                                 \
		const char *t_a_ = (a), *t_b_ = (b);                                         \
		t_checks++;                                                                  \
		if (!t_a_ || !t_b_ || strcmp(t_a_, t_b_)) {                                  \
			t_failures++;                                                        \
			fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, \
				__LINE__, #a, t_a_ ? t_a_ : "(null)", t_b_ ? t_b_ : "(null)"); \
		}                                                                            \
	} while (0)

#define T_NEAR(a, b, tol)                                                                   \
	do {                                                                                \
		double t_a_ = (double)(a), t_b_ = (double)(b);                              \
		t_checks++;                                                                 \
		if (!(t_a_ - t_b_ <= (tol) && t_b_ - t_a_ <= (tol))) {                      \
			t_failures++;                                                       \
			fprintf(stderr, "%s:%d: %s == %g, expected %g within %g\n", __FILE__, \
				__LINE__, #a, t_a_, t_b_, (double)(tol));                   \
		}                                                                           \
	} while (0)

/* End of main(): the verdict as an exit code. */
static inline int t_done(void)
{
	fprintf(stderr, "%d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : (t_checks ? 0 : 1);
}

#endif
