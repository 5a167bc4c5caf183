/* fuzz-cmdline.c - cmdline.txt model and quirks list: any bytes parse and write back
 * identically; a successful edit is idempotent, keeps one parameter within 127 characters,
 * and doctor's check of the result reads the same value. */
#include <stdint.h>
#include <stdlib.h>

#include "fix/cmdline.h"
#include "fix/diff.h"
#include "common/util.h"

static void check(bool ok)
{
	if (!ok)
		abort();
}

/* The quirks parameters the kernel reads: in the first line, before a "--". */
static size_t quirks_params(const struct cmdline *cl)
{
	struct sbuf v = SBUF_INIT(CMDLINE_FILE_MAX);
	size_t i, n = 0, end = cmdline_kernel_end(cl);

	for (i = 0; i < end; i++) {
		struct cmdline one = { .seg = &cl->seg[i], .n = 1, .alloc = 1 };

		n += cl->seg[i].param && !cmdline_quirks_get(&one, &v);
	}
	sbuf_release(&v);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf out = SBUF_INIT(1 << 22), again = SBUF_INIT(1 << 22), q = SBUF_INIT(1 << 22);
	struct sbuf d = SBUF_INIT(1 << 24);
	struct usb_id id = { 0x152d, 0x0578 };
	struct cmdline cl, cl2;
	struct usbq_merge res;
	struct fix_msgs m = { 0 };
	enum usbq_problem p;
	char ids[32], v[USBQ_VALUE_MAX + 2];
	bool changed;
	int ret;

	if (size > CMDLINE_FILE_MAX)
		return 0;
	/* the first two bytes pick the device, so entries already present get matched */
	if (size >= 4)
		id = (struct usb_id){ (uint16_t)(data[0] << 8 | data[1]),
				      (uint16_t)(data[2] << 8 | data[3]) };
	check(!cmdline_parse((const char *)data, size, &cl));
	check(!cmdline_write(&cl, &out));
	check(out.len == size && (!size || !memcmp(out.buf, data, size)));

	ret = cmdline_quirks_add(&cl, id, 'u', &m, &changed);
	check(!ret || ret == -EINVAL || ret == -ENOSPC);
	check(!ret || m.why[0]);
	if (!ret) {
		check(!cmdline_write(&cl, &out));
		check(changed == (out.len != size || memcmp(out.buf, data, size)));
		check(!cmdline_parse(out.buf ? out.buf : "", out.len, &cl2));
		check(quirks_params(&cl2) == 1);
		check(!cmdline_quirks_get(&cl2, &q) && q.len <= USBQ_VALUE_MAX);
		check(usbq_list_has(q.buf, q.len, id, 'u'));
		/* doctor reads the written line the way fix does: one parameter, the same value */
		p = usbq_cmdline_check(sbuf_str(&out), v, sizeof(v));
		check(p != USBQ_REPEATED && p != USBQ_TOO_LONG);
		check(strlen(v) == q.len && !memcmp(v, q.buf, q.len));
		memset(&m, 0, sizeof(m));
		check(!cmdline_quirks_add(&cl2, id, 'u', &m, &changed) && !changed);
		check(!cmdline_write(&cl2, &again));
		check(again.len == out.len && !memcmp(again.buf, out.buf, out.len));
		check(!diff_unified((const char *)data, size, out.buf, out.len, "a", "b", &d));
		check(!changed || d.len || out.len == size);
		cmdline_release(&cl2);
	}
	cmdline_release(&cl);

	/* the bytes as a quirks value and as a VID:PID argument */
	if (!usbq_list_add((const char *)data, size, id, 'u', &q, &res))
		check(usbq_list_has(q.buf, q.len, id, 'u'));
	if (size < sizeof(ids)) {
		memcpy(ids, data, size);
		ids[size] = '\0';
		usbq_id_parse(ids, &id);
	}
	sbuf_release(&out);
	sbuf_release(&again);
	sbuf_release(&q);
	sbuf_release(&d);
	return 0;
}
