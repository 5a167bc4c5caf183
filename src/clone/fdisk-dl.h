/* fdisk-dl.h - libfdisk for clone's partition tables, opened when clone first reads or
 * writes one (clone_fdisk_load): the calls below read as libfdisk's own. */
#ifndef SBCDISK_FDISK_DL_H
#define SBCDISK_FDISK_DL_H

#include <libfdisk/libfdisk.h>

#include "common/dlib.h"

#define FDISK_DL_FUNCS(FN) \
	FN(fdisk_add_partition) FN(fdisk_assign_device) FN(fdisk_create_disklabel) \
	FN(fdisk_deassign_device) FN(fdisk_disable_dialogs) FN(fdisk_get_disklabel_id) \
	FN(fdisk_get_label) FN(fdisk_get_partitions) FN(fdisk_get_sector_size) FN(fdisk_has_label) \
	FN(fdisk_label_get_name) FN(fdisk_label_get_parttype_from_code) \
	FN(fdisk_label_get_parttype_from_string) FN(fdisk_label_get_type) FN(fdisk_new_context) \
	FN(fdisk_new_partition) FN(fdisk_partition_get_name) FN(fdisk_partition_get_partno) \
	FN(fdisk_partition_get_size) FN(fdisk_partition_get_start) FN(fdisk_partition_get_type) \
	FN(fdisk_partition_get_uuid) FN(fdisk_partition_has_partno) FN(fdisk_partition_has_size) \
	FN(fdisk_partition_has_start) FN(fdisk_partition_is_bootable) \
	FN(fdisk_partition_is_container) FN(fdisk_partition_is_nested) \
	FN(fdisk_partition_set_name) FN(fdisk_partition_set_partno) FN(fdisk_partition_set_size) \
	FN(fdisk_partition_set_start) FN(fdisk_partition_set_type) FN(fdisk_partition_set_uuid) \
	FN(fdisk_parttype_get_code) FN(fdisk_parttype_get_string) \
	FN(fdisk_set_disklabel_id_from_string) FN(fdisk_table_get_nents) \
	FN(fdisk_table_get_partition) FN(fdisk_toggle_partition_flag) FN(fdisk_unref_context) \
	FN(fdisk_unref_partition) FN(fdisk_unref_parttype) FN(fdisk_unref_table) \
	FN(fdisk_write_disklabel)

FDISK_DL_FUNCS(DLIB_DECLARE)

#define fdisk_add_partition (*dl_fdisk_add_partition)
#define fdisk_assign_device (*dl_fdisk_assign_device)
#define fdisk_create_disklabel (*dl_fdisk_create_disklabel)
#define fdisk_deassign_device (*dl_fdisk_deassign_device)
#define fdisk_disable_dialogs (*dl_fdisk_disable_dialogs)
#define fdisk_get_disklabel_id (*dl_fdisk_get_disklabel_id)
#define fdisk_get_label (*dl_fdisk_get_label)
#define fdisk_get_partitions (*dl_fdisk_get_partitions)
#define fdisk_get_sector_size (*dl_fdisk_get_sector_size)
#define fdisk_has_label (*dl_fdisk_has_label)
#define fdisk_label_get_name (*dl_fdisk_label_get_name)
#define fdisk_label_get_parttype_from_code (*dl_fdisk_label_get_parttype_from_code)
#define fdisk_label_get_parttype_from_string (*dl_fdisk_label_get_parttype_from_string)
#define fdisk_label_get_type (*dl_fdisk_label_get_type)
#define fdisk_new_context (*dl_fdisk_new_context)
#define fdisk_new_partition (*dl_fdisk_new_partition)
#define fdisk_partition_get_name (*dl_fdisk_partition_get_name)
#define fdisk_partition_get_partno (*dl_fdisk_partition_get_partno)
#define fdisk_partition_get_size (*dl_fdisk_partition_get_size)
#define fdisk_partition_get_start (*dl_fdisk_partition_get_start)
#define fdisk_partition_get_type (*dl_fdisk_partition_get_type)
#define fdisk_partition_get_uuid (*dl_fdisk_partition_get_uuid)
#define fdisk_partition_has_partno (*dl_fdisk_partition_has_partno)
#define fdisk_partition_has_size (*dl_fdisk_partition_has_size)
#define fdisk_partition_has_start (*dl_fdisk_partition_has_start)
#define fdisk_partition_is_bootable (*dl_fdisk_partition_is_bootable)
#define fdisk_partition_is_container (*dl_fdisk_partition_is_container)
#define fdisk_partition_is_nested (*dl_fdisk_partition_is_nested)
#define fdisk_partition_set_name (*dl_fdisk_partition_set_name)
#define fdisk_partition_set_partno (*dl_fdisk_partition_set_partno)
#define fdisk_partition_set_size (*dl_fdisk_partition_set_size)
#define fdisk_partition_set_start (*dl_fdisk_partition_set_start)
#define fdisk_partition_set_type (*dl_fdisk_partition_set_type)
#define fdisk_partition_set_uuid (*dl_fdisk_partition_set_uuid)
#define fdisk_parttype_get_code (*dl_fdisk_parttype_get_code)
#define fdisk_parttype_get_string (*dl_fdisk_parttype_get_string)
#define fdisk_set_disklabel_id_from_string (*dl_fdisk_set_disklabel_id_from_string)
#define fdisk_table_get_nents (*dl_fdisk_table_get_nents)
#define fdisk_table_get_partition (*dl_fdisk_table_get_partition)
#define fdisk_toggle_partition_flag (*dl_fdisk_toggle_partition_flag)
#define fdisk_unref_context (*dl_fdisk_unref_context)
#define fdisk_unref_partition (*dl_fdisk_unref_partition)
#define fdisk_unref_parttype (*dl_fdisk_unref_parttype)
#define fdisk_unref_table (*dl_fdisk_unref_table)
#define fdisk_write_disklabel (*dl_fdisk_write_disklabel)
/* 0, or -ELIBACC/-ELIBBAD with why (src/clone/table.c). */
int clone_fdisk_load(char *why, size_t whycap);

#endif
