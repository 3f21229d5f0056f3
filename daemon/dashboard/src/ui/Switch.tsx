import { Switch as RadixSwitch } from 'radix-ui';
import { useId } from 'react';

interface Props {
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  /** Show the label beside the switch (otherwise it is only its accessible name). */
  readonly showLabel?: boolean;
  readonly disabled?: boolean;
}

export function Switch({ label, checked, onChange, showLabel = false, disabled = false }: Props) {
  const id = useId();
  return (
    <span className="switch-field">
      <RadixSwitch.Root
        id={id}
        className="switch"
        checked={checked}
        onCheckedChange={onChange}
        disabled={disabled}
        aria-label={showLabel ? undefined : label}
      >
        <RadixSwitch.Thumb className="switch-thumb" />
      </RadixSwitch.Root>
      {showLabel && <label htmlFor={id}>{label}</label>}
    </span>
  );
}
