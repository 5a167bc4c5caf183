/* config.h - the config.txt edits of `fix pcie-gen`, `fix usb-current` and `fix sd-cqe`,
 * over the model of common/bootcfg.h. */
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
/* Turn the SD card's command queueing off for the Raspberry Pi 5 (dtparam=sd_cqe=off): the
 * settings that apply to a Pi 5 set to off, else one line added where the Pi 5 reads it. */
int config_sd_cqe_off(struct config *cfg, struct fix_msgs *m, bool *changed);

#endif
