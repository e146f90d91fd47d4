import { deciderSpec } from '@svc/testing';
import { type AttemptEvent } from './attempt.events';
import { attemptDecider } from './attempt.decider';
import {
  attemptPrepared,
  authorizationSigned,
  hash,
  report,
  submittedWithSignature,
  T0,
  walletSubmitted,
} from './attempt.fixture';

/** An event a newer build may append: a type this build does not know. */
const futureThing = { type: 'FutureThing', data: {} } as unknown as AttemptEvent;
const fold = (events: AttemptEvent[]) => events.reduce(attemptDecider.evolve, attemptDecider.initialState);
const attempt = deciderSpec(attemptDecider);

describe('the attempt fold over an event type it does not know (a newer build wrote it)', () => {
  it('leaves the attempt as it was: [AttemptPrepared, FutureThing] folds as [AttemptPrepared]', () => {
    expect(fold([attemptPrepared, futureThing])).toEqual(fold([attemptPrepared]));
  });

  it('leaves it as it was anywhere in the story, before the attempt exists included', () => {
    expect(fold([futureThing])).toEqual(attemptDecider.initialState);
    expect(fold([futureThing, attemptPrepared])).toEqual(fold([attemptPrepared]));
    const [prepared, ...rest] = submittedWithSignature;
    expect(fold([prepared, futureThing, ...rest.flatMap((e) => [e, futureThing])])).toEqual(
      fold(submittedWithSignature),
    );
  });

  it('decides the next command as if it were not there', () => {
    const command = report('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(1)] }], T0 + 10_000, {
      value: `0x${'11'.repeat(65)}`,
      signer: '0x00000000000000000000000000000000000000aa',
    });
    const without = attemptDecider.decide(command, fold([attemptPrepared]));
    expect(without.map((e) => e.type)).toContain('EvidenceReported');
    attempt.given([attemptPrepared, futureThing]).when(command).then(without);
    attempt
      .given([attemptPrepared, authorizationSigned(), futureThing, walletSubmitted()])
      .when(command)
      .then(
        attemptDecider.decide(command, fold([attemptPrepared, authorizationSigned(), walletSubmitted()])),
      );
  });
});

describe('which stored attempt events the fold takes (attemptDecider.knownEventTypes, isEvent)', () => {
  const stored = (type: string, data: unknown) => ({ type, data });
  const story: AttemptEvent[] = [
    ...submittedWithSignature,
    {
      type: 'LegSettled',
      data: { sliceId: 's-eth', destinationTxHash: null, settledAmount: '1', amountBasis: 'exact', at: T0 },
    },
    { type: 'AttemptSettled', data: { at: T0 } },
  ];

  it('knows every type it folds, and no other', () => {
    expect(story.every((e) => attemptDecider.knownEventTypes?.has(e.type))).toBe(true);
    expect(attemptDecider.knownEventTypes?.has('FutureThing')).toBe(false);
  });

  it('takes every event the attempt appends as it is stored', () => {
    expect(
      story.filter((e) => !attemptDecider.isEvent?.(JSON.parse(JSON.stringify(e)) as AttemptEvent)),
    ).toEqual([]);
  });

  it.each([
    ['EvidenceReported without chainResults', stored('EvidenceReported', { reportId: 'r', reportedAt: T0 })],
    [
      'EvidenceReported with a chain result without txHashes',
      stored('EvidenceReported', { reportId: 'r', reportedAt: T0, chainResults: [{ chainId: 1 }] }),
    ],
    ['AttemptPrepared without legs', stored('AttemptPrepared', { ...attemptPrepared.data, legs: undefined })],
    [
      'AttemptPrepared with a leg without slices',
      stored('AttemptPrepared', { ...attemptPrepared.data, legs: [{ legIndex: 0 }] }),
    ],
    ['LegSettled whose data is not an object', stored('LegSettled', 'settled')],
    ['LegSettled whose data is null', stored('LegSettled', null)],
    ['AttemptSettled whose data is an array', stored('AttemptSettled', [T0])],
  ])('refuses %s', (_, event) => {
    expect(attemptDecider.isEvent?.(event)).toBe(false);
  });
});
