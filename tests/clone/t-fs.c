/* t-fs.c - clone's file-system table (clone/fs.h): every type blkid can report maps to a row,
 * and each row has what the plan, the copy, the finish and the comparison call on it. */
#include <stdbool.h>

#include "clone/fs.h"
#include "common/util.h"
#include "t.h"

/* What is wrong with row fs ("" nothing); catch_all: the last row, for what clone does not
 * know. The steps call these without asking whether they are there. */
static const char *row_problem(const struct clone_fs *fs, bool catch_all)
{
	size_t n = 0;

	if (!fs->name || !fs->plan)
		return "no name or no plan";
	if (catch_all)
		return fs->match ? "the last row matches only some types" :
		       fs->copy_used || fs->read_file || fs->set_id || fs->grow || fs->make ||
				       fs->check[0] || fs->compare || fs->new_id ?
				       "the catch-all reads or changes what it does not know" :
				       "";
	if (!fs->match)
		return "a row before the last matches every type";
	/* a file system clone knows is copied by what it uses, checked and compared */
	if (!fs->copy_used)
		return "no copy of the used part";
	if (!fs->check[0] || !fs->check_name || !fs->repair_hint)
		return "no check, or no name for it or for the repair";
	if (!fs->compare)
		return "no comparison";
	if (fs->repair[0] && (!fs->repair_name || !fs->on_device))
		return "a repair with no name or no device";
	if ((fs->grow || fs->make) && !fs->on_device)
		return "grown or made without a device";
	if (fs->make && !fs->used)
		return "made fresh for a live copy, but no used bytes for the plan";
	/* the plan reads config.txt, cmdline.txt and fstab, and apply rewrites them */
	if ((fs->boot_files || fs->can_be_root) && !fs->read_file)
		return "holds boot or root files it cannot read";
	if (fs->read_file && !fs->write_file && !fs->on_device)
		return "files read but no way to write them (no write_file, no device to mount)";
	while (n < CLONE_FS_TOOLS_MAX && fs->tools[n].prog)
		if (!fs->tools[n++].pkg)
			return "a tool without its package";
	return n ? "" : "no tools: what checks it?";
}

int main(void)
{
	static const struct {
		const char *fstype;
		const struct clone_fs *row;
	} types[] = {
		{ "ext2", &clone_fs_ext },    { "ext3", &clone_fs_ext },
		{ "ext4", &clone_fs_ext },    { "vfat", &clone_fs_vfat },
		/* what clone copies byte for byte, not understood */
		{ "", &clone_fs_whole },      { "swap", &clone_fs_whole },
		{ "ext4dev", &clone_fs_whole }, { "jbd", &clone_fs_whole },
		{ "exfat", &clone_fs_whole }, { "ntfs", &clone_fs_whole },
		{ "btrfs", &clone_fs_whole }, { "xfs", &clone_fs_whole },
		{ "f2fs", &clone_fs_whole },  { "crypto_LUKS", &clone_fs_whole },
		{ "VFAT", &clone_fs_whole },  { "ext", &clone_fs_whole },
	};
	struct clone_fs broken;

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		const struct clone_fs *fs = clone_fs_of(types[i].fstype);

		if (fs != types[i].row)
			fprintf(stderr, "'%s' is %s\n", types[i].fstype, fs ? fs->name : "NULL");
		T_CHECK(fs == types[i].row);
	}
	T_EQ_INT(clone_fs_count, 3);
	T_CHECK(clone_fs_table[clone_fs_count - 1] == &clone_fs_whole);
	for (size_t i = 0; i < clone_fs_count; i++) {
		const struct clone_fs *fs = clone_fs_table[i];
		const char *why = row_problem(fs, i + 1 == clone_fs_count);

		if (why[0])
			fprintf(stderr, "row %s: %s\n", fs->name ? fs->name : "?", why);
		T_EQ_STR(why, "");
		/* no row twice */
		for (size_t j = 0; j < i; j++)
			T_CHECK(clone_fs_table[j] != fs);
	}
	/* the one boot partition: the first partition that can hold the firmware's files */
	T_CHECK(clone_fs_vfat.boot_files && !clone_fs_ext.boot_files);
	T_CHECK(clone_fs_ext.can_be_root && !clone_fs_vfat.can_be_root);

	/* the rules catch a row that lacks an operation */
	broken = clone_fs_ext;
	broken.copy_used = NULL;
	T_EQ_STR(row_problem(&broken, false), "no copy of the used part");
	broken = clone_fs_vfat;
	broken.compare = NULL;
	T_EQ_STR(row_problem(&broken, false), "no comparison");
	broken = clone_fs_ext;
	broken.used = NULL;
	T_EQ_STR(row_problem(&broken, false),
		 "made fresh for a live copy, but no used bytes for the plan");
	broken = clone_fs_whole;
	broken.compare = clone_fs_ext.compare;
	T_EQ_STR(row_problem(&broken, true), "the catch-all reads or changes what it does not know");
	return t_done();
}
