// The four modes, wired from the components: network -> USB DAC or S/PDIF out (receivers), USB
// sound card or S/PDIF in -> network (senders).
#pragma once

#include "esp_err.h"
#include "tr_settings.h"
#include "tr_status.h"

esp_err_t tr_modes_start(const tr_settings_t *s);

/** The mode's part of the status. */
void tr_modes_status(const tr_settings_t *s, tr_status_t *st);

/** Applies a changed setting live if it can; true if the device must restart for it. */
bool tr_modes_apply(const tr_settings_t *before, const tr_settings_t *now);
