/* fuzz-import.c - the history document read run by run (store/run-import.c): any bytes are
 * refused with a reason or give runs that hold only what a run may hold. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/run.h"

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[300], digest[RUN_DIGEST_LEN + 1];
	struct run_doc d;
	struct run *r;
	size_t got = 0, i;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size); /* exactly size bytes, no NUL: an overread is seen */
	why[0] = '\0';
	ret = run_doc_open(&d, buf, size, why, sizeof(why));
	while (!ret) {
		ret = run_doc_next(&d, &r, why, sizeof(why));
		if (!r)
			break;
		got++;
		check(run_time_ok(r->started_at, false) && r->profile[0]);
		check(r->ntests <= RUN_TESTS_MAX);
		for (i = 0; i < r->ntests; i++)
			check(run_rw_ok(r->tests[i].rw) && run_text_ok(r->tests[i].name, 64));
		check(run_digest(r, digest) == 0 && strlen(digest) == RUN_DIGEST_LEN);
		run_free(r);
	}
	if (ret)
		check(ret == -ENOMEM || (why[0] && (ret == -EINVAL || ret == -EBADMSG)));
	else
		check(got == d.n);
	free(buf);
	return 0;
}
