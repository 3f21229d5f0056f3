/** A setting from the environment that cannot be used; the message names the variable. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}
