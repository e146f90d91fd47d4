import { type Decider, type UncheckedEvent } from './decider';

/**
 * What a stored event's data must hold for `evolve` to read it, beyond being a plain object: `true` when nothing
 * more, else a check of the fields `evolve` dereferences (arrays it iterates, objects it reads into).
 */
export type EventDataCheck = true | ((data: Readonly<Record<string, unknown>>) => boolean);

/** One check per event type of a decider's union: a type added to the union without a check does not compile. */
export type EventShapes<Event extends { type: string }> = {
  readonly [Type in Event['type']]: EventDataCheck;
};

/** A stored event's data as `evolve` may read it: a plain object (not null, not an array). */
export function isPlainData(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

/** An array whose every item passes `item`. */
export function isArrayOf(value: unknown, item: (x: unknown) => boolean = () => true): value is unknown[] {
  return Array.isArray(value) && value.every(item);
}

/**
 * A decider's `knownEventTypes` and `isEvent`, from one check per event type: spread them into the decider. A stored
 * event is one of `Event` when its type is one of them, its data a plain object, and that type's check passes.
 */
export function storedEventShapes<Event extends { type: string; data: unknown }>(
  shapes: EventShapes<Event>,
): Required<Pick<Decider<unknown, unknown, Event>, 'knownEventTypes' | 'isEvent'>> {
  const checks = new Map<string, EventDataCheck>(Object.entries(shapes));
  return {
    knownEventTypes: new Set(checks.keys()),
    isEvent: (event): event is UncheckedEvent & Event => {
      const check = checks.get(event.type);
      if (check === undefined || !isPlainData(event.data)) return false;
      return check === true || check(event.data);
    },
  };
}
