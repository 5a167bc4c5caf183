/* t-import.c - the history JSON reader on malformed and hostile documents (each rejected whole
 * with a reason), and CSV quoting of hostile strings. */
#include <math.h>

#include "t.h"
#include "common/sbuf.h"
#include "common/util.h"
#include "report/csv.h"
#include "common/json.h"
#include "store/run.h"

#define RUN_OK "{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"default\",\"tests\":[]}"

/* The same document read run by run (what the import does): the same verdict. */
static void check_stream(const char *doc, const char *want, bool json_ok)
{
	struct run_doc d;
	struct run *r;
	char why[300] = "";
	size_t got = 0;
	int ret;

	ret = run_doc_open(&d, doc, strlen(doc), why, sizeof(why));
	while (!ret) {
		ret = run_doc_next(&d, &r, why, sizeof(why));
		if (!r)
			break;
		run_free(r);
		got++;
	}
	if (!json_ok || (want && ret == -EBADMSG)) { /* json-c takes NaN, JSON does not */
		T_EQ_INT(ret, -EBADMSG);
		T_CHECK(strncmp(why, "not JSON: ", 10) == 0);
	} else if (want) {
		T_EQ_INT(ret, -EINVAL);
		if (!strstr(why, want))
			fprintf(stderr, "stream: reason '%s' lacks '%s' for %.80s\n", why, want, doc);
		T_CHECK(strstr(why, want) != NULL);
	} else {
		T_EQ_INT(ret, 0);
		T_EQ_INT(got, d.n);
	}
}

/* Parse doc; expect rejection with a reason that contains want (NULL: expect success). */
static void check_doc(const char *doc, const char *want)
{
	struct run_list l = { 0 };
	struct json_object *o;
	const char *err;
	char why[300] = "";
	int ret;

	o = json_parse_buf(doc, strlen(doc), &err);
	check_stream(doc, want, o != NULL);
	if (!o) {
		T_CHECK(want != NULL); /* not even JSON */
		return;
	}
	ret = run_list_from_json(o, &l, why, sizeof(why));
	if (want) {
		T_EQ_INT(ret, -EINVAL);
		T_EQ_INT(l.n, 0);
		if (!strstr(why, want))
			fprintf(stderr, "reason '%s' lacks '%s' for %.80s\n", why, want, doc);
		T_CHECK(strstr(why, want) != NULL);
	} else {
		T_EQ_INT(ret, 0);
	}
	run_list_release(&l);
	json_object_put(o);
}

static void test_malformed(void)
{
	check_doc("{\"schema\":1,\"runs\":[" RUN_OK "," RUN_OK "]}", NULL);
	check_doc("[]", "not a JSON object");
	check_doc("{\"runs\":[]}", "'schema'");
	check_doc("{\"schema\":2,\"runs\":[]}", "schema 2");
	check_doc("{\"schema\":\"1\",\"runs\":[]}", "'schema'");
	check_doc("{\"schema\":1,\"runs\":{}}", "'runs'");
	check_doc("{\"schema\":1,\"runs\":[" RUN_OK ",17]}", "run 2 of 2: a run is not an object");
	check_doc("{\"schema\":1,\"runs\":[{\"profile\":\"x\",\"tests\":[]}]}", "'started_at'");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"yesterday\",\"profile\":\"x\","
		  "\"tests\":[]}]}",
		  "'started_at' is not a time");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-13-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[]}]}",
		  "'started_at' is not a time");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\"}]}",
		  "'tests' is missing");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"device\":[],\"tests\":[]}]}",
		  "'device' is not an object");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[{\"name\":\"A\",\"rw\":\"read\","
		  "\"bw_bytes_per_s\":-5}]}]}",
		  "'bw_bytes_per_s' is negative in test 'A read'");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[{\"name\":\"A\",\"rw\":\"read\","
		  "\"iops\":\"fast\"}]}]}",
		  "'iops' is not a number");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[{\"name\":\"A\",\"rw\":\"read\","
		  "\"iops\":1e999}]}]}",
		  "'iops' is too large (at most 1000000000000000000) in test 'A read'");
	/* json-c clamps it to 18446744073709551615: that number is not the user's */
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[{\"name\":\"A\",\"rw\":\"read\","
		  "\"block_bytes\":100000000000000000000000}]}]}",
		  "'block_bytes' is too large (at most 1099511627776) in test 'A read'");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[{\"name\":\"A\",\"rw\":\"read\","
		  "\"iops\":NaN}]}]}",
		  "'iops' is not a number");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\",\"tests\":[{\"name\":\"A\\u0000B\",\"rw\":\"read\"}]}]}",
		  "not clean UTF-8");
	check_doc("{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		  "\"profile\":\"x\\u001b[31m\",\"tests\":[]}]}",
		  "not clean UTF-8");
	check_doc("{\"schema\":1,\"runs\":[" RUN_OK "]} trailing", "x");
	check_doc("{\"schema\":1,\"runs\":[" RUN_OK, "x");
	check_doc("", "x");
	check_stream("null", "not a JSON object", true);
	check_stream("{\"schema\":1,\"runs\":[" RUN_OK "],\"junk\":[1,{\"a\":[true,null,-0.5e3]}]}",
		     NULL, true);
	check_stream("{\"schema\":1,\"runs\":[],\"junk\":[1,}", NULL, false);
	check_stream("{\"schema\":1,\"runs\":[],\"junk\":\"\\x\"}", NULL, false);
	check_stream("{\"schema\":1,\"runs\":[],\"junk\":01}", NULL, false);
}

static void test_hostile_sizes(void)
{
	struct sbuf sb = SBUF_INIT(16u << 20);
	int i;

	/* nesting far deeper than the parser allows */
	for (i = 0; i < 100000; i++)
		T_MUST(sbuf_addch(&sb, '['));
	check_doc(sbuf_str(&sb), "x");
	/* a name longer than any test name */
	sbuf_reset(&sb);
	T_MUST(sbuf_adds(&sb, "{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		       "\"profile\":\"x\",\"tests\":[{\"rw\":\"read\",\"name\":\""));
	for (i = 0; i < 5000; i++)
		T_MUST(sbuf_addch(&sb, 'N'));
	T_MUST(sbuf_adds(&sb, "\"}]}]}"));
	check_doc(sbuf_str(&sb), "too long");
	/* too many tests in one run */
	sbuf_reset(&sb);
	T_MUST(sbuf_adds(&sb, "{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		       "\"profile\":\"x\",\"tests\":["));
	for (i = 0; i < RUN_TESTS_MAX + 1; i++)
		T_MUST(sbuf_addf(&sb, "%s{\"name\":\"T%d\",\"rw\":\"read\"}", i ? "," : "", i));
	T_MUST(sbuf_adds(&sb, "]}]}"));
	check_doc(sbuf_str(&sb), "more than 64 tests");
	/* too many runs */
	sbuf_reset(&sb);
	T_MUST(sbuf_adds(&sb, "{\"schema\":1,\"runs\":["));
	for (i = 0; i < RUN_IMPORT_MAX + 1; i++)
		T_MUST(sbuf_addf(&sb, "%s" RUN_OK, i ? "," : ""));
	T_MUST(sbuf_adds(&sb, "]}"));
	check_doc(sbuf_str(&sb), "more than 4096 runs");
	/* a device document over the cap */
	sbuf_reset(&sb);
	T_MUST(sbuf_adds(&sb, "{\"schema\":1,\"runs\":[{\"started_at\":\"2026-11-30T10:00:00Z\","
		       "\"profile\":\"x\",\"tests\":[],\"device\":{\"model\":\""));
	for (i = 0; i < RUN_JSON_MAX; i++)
		T_MUST(sbuf_addch(&sb, 'M'));
	T_MUST(sbuf_adds(&sb, "\"}}]}"));
	check_doc(sbuf_str(&sb), "'device' is larger");
	sbuf_release(&sb);
}

static void csv_is(const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	csv_field(f, in);
	fclose(f);
	T_EQ_STR(buf, want);
	free(buf);
}

static void test_csv(void)
{
	csv_is("plain text", "plain text");
	csv_is("a,b", "\"a,b\"");
	csv_is("say \"hi\"", "\"say \"\"hi\"\"\"");
	csv_is("two\nlines", "\"two\nlines\"");
	csv_is("cr\rhere", "\"cr\rhere\"");
	csv_is("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
	csv_is("@SUM(A1)", "\"'@SUM(A1)\"");
	csv_is("", "");
}

int main(void)
{
	test_malformed();
	test_hostile_sizes();
	test_csv();
	return t_done();
}
