/* fuzz-smartctl.c - the smartctl --json parser (probe/health.c) on any bytes: no crash, no
 * hang; strings left behind are clean UTF-8 and NUL-terminated, the state fits what was found. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/health.h"
#include "common/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_health h;
	int ret;

	if (size > (1 << 20))
		return 0;
	memset(&h, 0, sizeof(h));
	str_copy(h.device_type, sizeof(h.device_type), "sat");
	ret = probe_health_parse((const char *)data, size, &h);
	if (ret != 0 && ret != -EINVAL && ret != -ENOMEM)
		abort();
	if (strcmp(h.device_type, "sat"))
		abort();
	if (ret)
		return 0;
	if (!str_is_clean_utf8(h.message) || !str_is_clean_utf8(h.why) ||
	    !str_is_clean_utf8(h.reported_type))
		abort();
	if (h.state != PROBE_HEALTH_OK && h.state != PROBE_HEALTH_NO_SMART &&
	    h.state != PROBE_HEALTH_ERROR)
		abort();
	if (h.state == PROBE_HEALTH_OK && !h.has_passed && !h.has_percentage_used &&
	    !h.has_power_on_hours && !h.has_media_errors && !h.has_reallocated && !h.has_pending &&
	    !h.has_unsafe_shutdowns && !h.has_temperature && !h.has_critical_warning)
		abort();
	if (h.has_percentage_used && h.percentage_used > 255)
		abort();
	if (h.has_exit_status && (h.exit_status < 0 || h.exit_status > 255))
		abort();
	return 0;
}
