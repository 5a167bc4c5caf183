/* list-int.h - the column descriptor table shared by the list renderers (table, JSON, help).
 * Not for other layers: they use report/list.h. */
#ifndef SBCDISK_REPORT_LIST_INT_H
#define SBCDISK_REPORT_LIST_INT_H

#include "report/list.h"

enum list_type {
	LIST_STR,    /* string, "" unknown */
	LIST_U64,    /* number */
	LIST_SIZE,   /* bytes: human or exact in tables, a number in JSON */
	LIST_BOOL,   /* 0/1 in tables, true/false in JSON */
	LIST_MOUNTS, /* the mount point list */
};

struct list_value {
	bool known;
	const char *s;
	uint64_t u;
	bool b;
	char buf[1024]; /* last: list_value_get() clears only what comes before it */
};

struct list_column {
	const char *name;     /* header, and the name -o takes */
	const char *json_key; /* key in the DEVICE object, NULL when the contract has none */
	enum list_type type;
	double whint; /* libsmartcols width hint */
	int flags;    /* SCOLS_FL_* */
	const char *help;
	void (*get)(const struct blkdev *d, struct list_value *v);
	/* the table's own text when it differs from the JSON value (NULL: from get) */
	void (*table_text)(const struct blkdev *d, char *buf, size_t cap);
	bool health; /* needs smartctl's answer (list-health.c) */
	/* on a terminal too narrow for the table: the text in a narrow form (NULL: none) */
	void (*table_short)(const struct blkdev *d, char *buf, size_t cap);
	int rank;   /* importance on a narrow terminal: 1 first; 0 after the ranked ones */
	size_t min; /* the narrowest it is cut to (0: never cut) */
};

extern const struct list_column list_columns[];
extern const size_t list_n_columns;

/* list-health.c */
void list_get_health(const struct blkdev *d, struct list_value *v);
void list_get_wear(const struct blkdev *d, struct list_value *v);
void list_table_wear(const struct blkdev *d, char *buf, size_t cap);
void list_get_temp(const struct blkdev *d, struct list_value *v);
void list_table_temp(const struct blkdev *d, char *buf, size_t cap);
struct probe_health;
struct json_object *list_health_to_json(const struct probe_health *h);

void list_value_get(const struct list_column *c, const struct blkdev *d, struct list_value *v);

#endif
