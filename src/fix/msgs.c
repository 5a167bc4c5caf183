/* msgs.c - the notes and refusal texts every fix returns to cli/.
 * Domain code explains itself through these instead of printing. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fix/msgs.h"

void fix_note(struct fix_msgs *m, const char *fmt, ...)
{
	va_list ap;

	if (m->n >= FIX_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(m->note[m->n++], FIX_MSG_MAX, fmt, ap);
	va_end(ap);
}

void fix_note_first(struct fix_msgs *m, const char *text)
{
	size_t keep = m->n < FIX_NOTES_MAX ? m->n : FIX_NOTES_MAX - 1;

	memmove(m->note[1], m->note[0], keep * sizeof(m->note[0]));
	snprintf(m->note[0], FIX_MSG_MAX, "%s", text);
	m->n = keep + 1;
}

int fix_refuse(struct fix_msgs *m, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
	return err;
}
