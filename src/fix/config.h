/* config.h - the config.txt edits of `fix pcie-gen` and `fix usb-current`, over the model
 * of common/bootcfg.h. */
#ifndef SBCDISK_FIX_CONFIG_H
#define SBCDISK_FIX_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "common/bootcfg.h"
#include "fix/msgs.h"

/* Set dtparam=pciex1_gen=gen (2 or 3) for the Raspberry Pi 5: replace the settings that
 * apply to a Pi 5, else add one where the Pi 5 reads it. 0 or -EINVAL with m->why. */
int config_pcie_gen_set(struct config *cfg, int gen, struct fix_msgs *m, bool *changed);

/* Set usb_max_current_enable=1 where a Raspberry Pi 5 reads it (a line that sets another
 * value is changed in place, else one is added as for pciex1_gen). 0 or -EINVAL with m->why. */
int config_usb_current_set(struct config *cfg, struct fix_msgs *m, bool *changed);

#endif
