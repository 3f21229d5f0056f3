import { useRef } from 'react';
import { COLLECTION, type EntityTypes, type Kind } from '../../api/client';
import { useLive } from '../../api/hooks';

/** The entry of `kind` named `name` from the live configuration (null when there is none). */
export function useEntity<K extends Kind>(
  kind: K,
  name: string,
  frozen = false,
): EntityTypes[K]['entity'] | null {
  const current = useLive(
    (s) =>
      (s.config?.[COLLECTION[kind]] as EntityTypes[K]['entity'][] | undefined)?.find(
        (e) => e.name === name,
      ) ?? null,
  );
  const first = useRef(current);
  if (first.current === null) first.current = current;
  return frozen ? first.current : current;
}
