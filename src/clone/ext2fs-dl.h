/* ext2fs-dl.h - libext2fs and libe2p for clone's copy of ext file systems, opened when clone
 * first reads one (clone_ext_load): the calls below read as the libraries' own. */
#ifndef SBCDISK_EXT2FS_DL_H
#define SBCDISK_EXT2FS_DL_H

/* every function a plain declaration, so that each call goes through its pointer */
#define NO_INLINE_FUNCS
#include <e2p/e2p.h>
#include <ext2fs/ext2fs.h>

#include "common/dlib.h"

#define EXT2FS_DL_FUNCS(FN) \
	FN(ext2fs_blocks_count) FN(ext2fs_close_free) FN(ext2fs_file_close) FN(ext2fs_file_open) \
	FN(ext2fs_file_read) FN(ext2fs_find_first_set_block_bitmap2) \
	FN(ext2fs_find_first_zero_block_bitmap2) FN(ext2fs_free_blocks_count) \
	FN(ext2fs_is_fast_symlink) FN(ext2fs_lookup) FN(ext2fs_namei_follow) FN(ext2fs_open2) \
	FN(ext2fs_read_block_bitmap) FN(ext2fs_read_inode) FN(unix_io_manager)
/* libe2p, beside it in e2fsprogs: the names of ext features */
#define E2P_DL_FUNCS(FN) FN(e2p_feature2string)

EXT2FS_DL_FUNCS(DLIB_DECLARE)
E2P_DL_FUNCS(DLIB_DECLARE)

#define ext2fs_blocks_count (*dl_ext2fs_blocks_count)
#define ext2fs_close_free (*dl_ext2fs_close_free)
#define ext2fs_file_close (*dl_ext2fs_file_close)
#define ext2fs_file_open (*dl_ext2fs_file_open)
#define ext2fs_file_read (*dl_ext2fs_file_read)
#define ext2fs_find_first_set_block_bitmap2 (*dl_ext2fs_find_first_set_block_bitmap2)
#define ext2fs_find_first_zero_block_bitmap2 (*dl_ext2fs_find_first_zero_block_bitmap2)
#define ext2fs_free_blocks_count (*dl_ext2fs_free_blocks_count)
#define ext2fs_is_fast_symlink (*dl_ext2fs_is_fast_symlink)
#define ext2fs_lookup (*dl_ext2fs_lookup)
#define ext2fs_namei_follow (*dl_ext2fs_namei_follow)
#define ext2fs_open2 (*dl_ext2fs_open2)
#define ext2fs_read_block_bitmap (*dl_ext2fs_read_block_bitmap)
#define ext2fs_read_inode (*dl_ext2fs_read_inode)
#define unix_io_manager (*dl_unix_io_manager)
#define e2p_feature2string (*dl_e2p_feature2string)
/* 0, or -ELIBACC/-ELIBBAD with why (src/clone/ext.c). */
int clone_ext_load(char *why, size_t whycap);

#endif
