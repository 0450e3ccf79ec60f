import { MESSAGE_STATUSES, TRANSITIONS } from './message-status';

const FINAL = ['sent', 'failed'];
const from = (step: keyof typeof TRANSITIONS) => [...TRANSITIONS[step]].sort();

describe('the message lifecycle queued → sending → sent | failed', () => {
  it('has exactly the four statuses of the contract', () => {
    expect(MESSAGE_STATUSES).toEqual(['queued', 'sending', 'sent', 'failed']);
  });

  it('never leaves a final status, whichever step a job repeats', () => {
    for (const step of Object.keys(TRANSITIONS) as Array<keyof typeof TRANSITIONS>)
      expect(from(step).filter((status) => FINAL.includes(status))).toEqual([]);
  });

  it('starts an attempt from queued, and again from sending (a retry, or a job of a worker that died)', () => {
    expect(from('startSending')).toEqual(['queued', 'sending']);
  });

  it('records an attempt’s error and marks a message sent only during an attempt', () => {
    expect(from('recordError')).toEqual(['sending']);
    expect(from('markSent')).toEqual(['sending']);
  });

  it('fails a message during an attempt, or while queued when its job was given up without running', () => {
    expect(from('markFailed')).toEqual(['queued', 'sending']);
  });
});
