/* fuzz-bootcfg-eval.c - config.txt evaluated for a board: any bytes give one of the documented
 * answers, twice the same, and a command line file that stays on the partition. */
#include <stdint.h>
#include <stdlib.h>

#include "common/bootcfg-eval.h"
#include "common/util.h"

/* The input: byte 0 picks the board, then files split at NUL bytes: config.txt, f1, f2 ... */
struct files {
	const char *part[10];
	size_t len[10];
	size_t n;
};

static void check(bool ok)
{
	if (!ok)
		abort();
}

static int mem_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	const struct files *f = arg;
	size_t i = 0;

	sbuf_init(out, cap);
	if (strcmp(name, "config.txt")) {
		if (name[0] != 'f' || name[1] < '1' || name[1] > '9' || name[2])
			return -ENOENT;
		i = (size_t)(name[1] - '0');
	}
	if (i >= f->n)
		return -ENOENT;
	if (f->len[i] > cap)
		return -EFBIG;
	return sbuf_add(out, f->part[i], f->len[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const boards[] = { "pi5", "cm5", "pi500", "pi4", "pi400", "cm4",
					      "cm4s", "pi3+", "pi02", "pi1" };
	struct config_eval *ev = calloc(1, sizeof(*ev)), *ev2 = calloc(1, sizeof(*ev2));
	struct files f = { .n = 0 };
	struct config_source src = { .read = mem_read, .arg = &f };
	struct config_board b = { 0 };
	struct config_value v;
	const char *p, *end, *nul;
	char unk[64], msg[512];
	int ret, ret2;

	if (!ev || !ev2 || !size || size > CONFIG_FILE_MAX)
		goto out;
	if (data[0] % 11 < ARRAY_SIZE(boards))
		check(!config_board_parse(boards[data[0] % 11], &b));
	b.tryboot = data[0] & 0x80;
	b.has_serial = data[0] & 0x40;
	b.serial = 0x12345678;
	for (p = (const char *)data + 1, end = (const char *)data + size; f.n < 10; p = nul + 1) {
		nul = memchr(p, '\0', (size_t)(end - p));
		f.part[f.n] = p;
		f.len[f.n++] = nul ? (size_t)(nul - p) : (size_t)(end - p);
		if (!nul)
			break;
	}
	ret = config_eval(&src, &b, ev);
	check(!ret || ret == -EAGAIN || ret == -ELOOP || ret == -EXDEV || ret == -E2BIG ||
	      ret == -EFBIG || ret == -ENAMETOOLONG);
	ret2 = config_eval(&src, &b, ev2);
	check(ret == ret2 && !memcmp(ev, ev2, sizeof(*ev)));
	if (!ret)
		check(ev->cmdline_file[0] && ev->cmdline_file[0] != '/' &&
		      !strstr(ev->cmdline_file, ".."));
	if (ret == -EAGAIN)
		check(ev->unknown[0] == '[' && ev->unknown_key[0]);
	config_eval_explain(ev, ret ? ret : -EIO, msg, sizeof(msg));
	check(msg[0]);
	ret = config_eval_get(&src, &b, "dtparam", &v, unk, sizeof(unk));
	check(ret != -EAGAIN || unk[0] == '[');
	check(ret || v.set);
out:
	free(ev);
	free(ev2);
	return 0;
}
