/* fuzz-config.c - config.txt model: any bytes parse and write back identically; setting the
 * PCIe generation succeeds or refuses cleanly, and doing it twice is doing it once. */
#include <stdint.h>
#include <stdlib.h>

#include "fix/config.h"
#include "fix/diff.h"
#include "common/util.h"

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf out = SBUF_INIT(1 << 22), again = SBUF_INIT(1 << 22), d = SBUF_INIT(1 << 24);
	struct config cfg, cfg2;
	struct fix_msgs m = { 0 };
	struct config_filter f;
	int gen = size && (data[0] & 1) ? 2 : 3, ret;
	bool changed;
	char v[256];

	if (size > CONFIG_FILE_MAX)
		return 0;
	ret = config_parse((const char *)data, size, &cfg);
	check(!ret || ret == -E2BIG);
	if (ret)
		goto out;
	check(!config_write(&cfg, &out));
	check(out.len == size && (!size || !memcmp(out.buf, data, size)));
	config_get(&cfg, "os_prefix", v, sizeof(v));
	config_filter_at(&cfg, cfg.n ? cfg.n - 1 : 0, &f);

	ret = config_pcie_gen_set(&cfg, gen, &m, &changed);
	check(!ret || (ret == -EINVAL && m.why[0]) || ret == -E2BIG);
	if (!ret) {
		check(!config_write(&cfg, &out));
		check(!config_parse(out.buf ? out.buf : "", out.len, &cfg2));
		memset(&m, 0, sizeof(m));
		ret = config_pcie_gen_set(&cfg2, gen, &m, &changed);
		check(ret == -E2BIG || (!ret && !changed));
		if (!ret) {
			check(!config_write(&cfg2, &again));
			check(again.len == out.len && !memcmp(again.buf, out.buf, out.len));
		}
		check(!diff_unified((const char *)data, size, out.buf, out.len, "a", "b", &d));
		config_release(&cfg2);
	}
out:
	config_release(&cfg);
	sbuf_release(&out);
	sbuf_release(&again);
	sbuf_release(&d);
	return 0;
}
