/* store-schema.h - the schema versions of the result store and the migrations between them.
 * Internal to store/ and its tests: a test builds every earlier version and migrates it. */
#ifndef SBCDISK_STORE_SCHEMA_H
#define SBCDISK_STORE_SCHEMA_H

#include <stddef.h>

#include "store/sqlite-dl.h"

/* The attachment columns (schema 3) from the device document: used by migration 3 for the
 * runs stored before it, and by every insert since. */
#define STORE_ATTACH_SET                                                                    \
	" usb_id = json_extract(device_json, '$.usb.vid') || ':' ||"                        \
	"  json_extract(device_json, '$.usb.pid'),"                                         \
	" usb_speed_mbps = json_extract(device_json, '$.usb.speed_mbps'),"                  \
	" usb_driver = json_extract(device_json, '$.usb.driver'),"                          \
	" bridge = json_extract(device_json, '$.usb.bridge'),"                              \
	" pcie_link = json_extract(device_json, '$.pcie.link_speed_gts') || ' GT/s x' ||"   \
	"  json_extract(device_json, '$.pcie.link_width'),"                                 \
	" sd_id = json_extract(device_json, '$.mmc.manfid') || ' ' ||"                      \
	"  json_extract(device_json, '$.mmc.name') || ' ' ||"                               \
	"  json_extract(device_json, '$.mmc.serial'),"                                      \
	" fstype = json_extract(device_json, '$.fstype')"

/* Schema 4's idea of the same run (time, profile, device, board, bandwidths): kept only to
 * build that version; since schema 5 the digest of the whole run decides (run_digest()). */
#define STORE_FINGERPRINT                                                                   \
	"started_at || '|' || profile || '|' || coalesce(dev_name, '') || '|' ||"           \
	" coalesce(dev_model, '') || '|' || coalesce(dev_serial, '') || '|' ||"             \
	" coalesce(board, '') || '|' || coalesce((SELECT group_concat(t, ';') FROM"         \
	" (SELECT name || ' ' || rw || ' ' || coalesce(bw, '') || ' ' || coalesce(iops, '')" \
	" AS t FROM tests WHERE run_id = runs.id ORDER BY seq)), '')"

/* One text per drive from the columns runs and fixes share (t: the table's name): the
 * serial with the model, else the model with the USB id, else the USB id; NULL when none
 * is known, and NULL matches nothing. */
#define STORE_DEV_KEY(t)                                                                    \
	"(CASE WHEN " t ".dev_serial IS NOT NULL THEN 's:' || " t ".dev_serial || '|' ||"    \
	" coalesce(" t ".dev_model, '') WHEN " t ".dev_model IS NOT NULL THEN 'm:' || " t     \
	".dev_model || '|' || coalesce(" t ".usb_id, '') WHEN " t ".usb_id IS NOT NULL THEN"  \
	" 'u:' || " t ".usb_id END)"

/* The rows of a drive named by the text parameter p ("?1"): its part of the name, model,
 * serial or USB id, without regard to case; every row when p is NULL. For the tables with
 * those columns: runs, fixes, boot_times. */
#define STORE_DEV_MATCH(p)                                                                  \
	"(" p " IS NULL OR instr(lower(coalesce(dev_name, '') || '|' || coalesce(dev_model, '')" \
	" || '|' || coalesce(dev_serial, '') || '|' || coalesce(usb_id, '')), lower(" p ")) > 0)"

/* The version of db: 0 when it holds no table at all. -EPROTO when it holds tables but no
 * migrations table (not ours), or an SQLite error as -errno (see store_sqlite_errno()). */
int store_schema_get(sqlite3 *db, int *version);

/* Apply the migrations after from up to to, in the caller's transaction. 0 or -errno. */
int store_schema_migrate(sqlite3 *db, int from, int to);

/* SQLite result code to -errno: BUSY -EBUSY, READONLY -EROFS, CORRUPT/NOTADB -EBADMSG,
 * FULL -ENOSPC, CANTOPEN/PERM -EACCES, NOMEM -ENOMEM, else -EIO. */
int store_sqlite_errno(int rc);

#endif
