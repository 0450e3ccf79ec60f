import { Logger } from '@nestjs/common';
import { MAX_CALLERS_PER_INTERVAL, REFUSAL_SUMMARY_INTERVAL_MS, RefusalLog } from './refusal-log';

describe('RefusalLog', () => {
  let log: RefusalLog;
  let lines: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    lines = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    log = new RefusalLog();
  });
  afterEach(() => {
    log.onApplicationShutdown();
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  it("lets each caller's first refusal of an interval be logged in full, and counts the rest", () => {
    expect(log.record('account:1')).toBe(true);
    expect(log.record('account:1')).toBe(false);
    expect(log.record('ip:10.0.0.1')).toBe(true);
    expect(log.record('account:1')).toBe(false);
  });

  it('summarises an interval once it is over, most refused caller first, and starts afresh', () => {
    for (let i = 0; i < 5; i++) log.record('account:1');
    for (let i = 0; i < 2; i++) log.record('ip:10.0.0.1');
    log.record('account:2');

    jest.advanceTimersByTime(REFUSAL_SUMMARY_INTERVAL_MS);

    expect(lines).toHaveBeenCalledTimes(1);
    const [fields, message] = lines.mock.calls[0] as [Record<string, unknown>, string];
    expect(fields).toEqual({
      refused: 8,
      unlogged: 5,
      seconds: REFUSAL_SUMMARY_INTERVAL_MS / 1000,
      byCaller: { 'account:1': 5, 'ip:10.0.0.1': 2, 'account:2': 1 },
      otherCallers: 0,
    });
    expect(Object.keys(fields.byCaller as object)).toEqual(['account:1', 'ip:10.0.0.1', 'account:2']);
    expect(message).toBe('rate limits refused 8 request(s) in 10 s; 5 of them had no line of their own');
    expect(log.record('account:1')).toBe(true);
  });

  it('writes no summary when every refusal had its own line', () => {
    log.record('account:1');
    log.record('account:2');
    jest.advanceTimersByTime(REFUSAL_SUMMARY_INTERVAL_MS);
    expect(lines).not.toHaveBeenCalled();
  });

  it('names at most 20 callers and counts the rest', () => {
    for (let caller = 0; caller < 25; caller++) {
      log.record(`ip:10.0.0.${caller}`);
      log.record(`ip:10.0.0.${caller}`);
    }
    log.summarise();
    const [fields] = lines.mock.calls[0] as [{ byCaller: object; otherCallers: number; refused: number }];
    expect(Object.keys(fields.byCaller)).toHaveLength(20);
    expect(fields).toMatchObject({ otherCallers: 5, refused: 50 });
  });

  it('stops tracking new callers past its cap, still counting their refusals, without a line each', () => {
    for (let caller = 0; caller < MAX_CALLERS_PER_INTERVAL; caller++) log.record(`ip:${caller}`);
    expect(log.record('ip:one-too-many')).toBe(false);
    log.summarise();
    expect(lines.mock.calls[0]![0]).toMatchObject({ refused: MAX_CALLERS_PER_INTERVAL + 1, unlogged: 1 });
  });

  it('summarises what is left when the app shuts down', () => {
    log.record('account:1');
    log.record('account:1');
    log.onApplicationShutdown();
    expect(lines.mock.calls[0]![0]).toMatchObject({ refused: 2, unlogged: 1, byCaller: { 'account:1': 2 } });
  });
});
