// The first-boot wizard as a state machine: four steps (Wi-Fi, mode, audio, review), each a form
// the setup page posts and this validates; a step can be revisited, never skipped. The pages are
// rendered from this state (tr_setup_pages.h); the ESP-IDF glue only moves bytes.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "tr_settings.h"

typedef enum {
    TR_STEP_WIFI = 0,
    TR_STEP_MODE,
    TR_STEP_AUDIO,
    TR_STEP_REVIEW,
    TR_STEP_DONE, // saved: the device restarts into its mode
    TR_STEP_COUNT,
} tr_wizard_step_t;

typedef struct {
    tr_wizard_step_t step;     // the step shown now
    tr_wizard_step_t reached;  // the furthest step reached (steps up to it can be posted)
    tr_settings_t draft;       // what the steps so far set
    bool has_error;
    tr_settings_error_t error; // why the last submission was refused
} tr_wizard_t;

/** Starts over from `current` (a fresh device's defaults and identity, or its saved settings). */
void tr_wizard_start(tr_wizard_t *w, const tr_settings_t *current);

/** The step's path segment ("wifi", "mode", "audio", "review", "done"). */
const char *tr_wizard_step_name(tr_wizard_step_t step);

/** Parses a step name; false if unknown. */
bool tr_wizard_step_parse(const char *name, tr_wizard_step_t *out);

/**
 * A form posted for `step` (urlencoded). Valid: the draft takes its fields and the wizard moves
 * to the step after it (the review's "confirm" finishes: TR_STEP_DONE). Invalid, or a step not
 * reached yet: the wizard stays where it was, with `error` set. Returns the step to show next.
 */
tr_wizard_step_t tr_wizard_submit(tr_wizard_t *w, tr_wizard_step_t step, const char *form,
                                  size_t len);

/** Goes back to an earlier step to change it (its later steps are kept). */
void tr_wizard_back(tr_wizard_t *w, tr_wizard_step_t step);

/** The fields a step accepts (NULL-terminated); receivers and senders differ on the audio step. */
const char *const *tr_wizard_fields(tr_wizard_step_t step, tr_mode_t mode);
