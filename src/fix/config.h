/* config.h - the config.txt edit of `fix pcie-gen`, over the model of common/bootcfg.h. */
#ifndef SBCDISK_FIX_CONFIG_H
#define SBCDISK_FIX_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "common/bootcfg.h"
#include "fix/msgs.h"

/* Set dtparam=pciex1_gen=gen (2 or 3) for the Raspberry Pi 5: replace the settings that
 * apply to a Pi 5, else add one where the Pi 5 reads it. 0 or -EINVAL with m->why. */
int config_pcie_gen_set(struct config *cfg, int gen, struct fix_msgs *m, bool *changed);

#endif
