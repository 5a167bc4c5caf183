/* msgs.h - what every fix reports back: notes that explain, and the reason for a refusal.
 * The fix layer never prints; cli/ shows these texts. */
#ifndef SBCDISK_FIX_MSGS_H
#define SBCDISK_FIX_MSGS_H

#include <stddef.h>

#define FIX_MSG_MAX 512
#define FIX_NOTES_MAX 8

struct fix_msgs {
	char note[FIX_NOTES_MAX][FIX_MSG_MAX]; /* explanations of what the edit does */
	size_t n;
	char why[FIX_MSG_MAX]; /* set when an operation refuses */
};

/* Add an explanation (silently dropped when full; truncated to FIX_MSG_MAX). */
void fix_note(struct fix_msgs *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, placed before the notes already there. */
void fix_note_first(struct fix_msgs *m, const char *text);
/* Set the refusal text and return err (a negative errno), so callers write
 * `return fix_refuse(m, -EINVAL, "...")`. */
int fix_refuse(struct fix_msgs *m, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
