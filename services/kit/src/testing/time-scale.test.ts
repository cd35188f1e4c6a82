import { describe, expect, it } from 'vitest';
import { timeScale } from './time-scale.js';

describe('timeScale', () => {
  it('is 1 when CIVIC_TEST_TIME_SCALE is unset or blank, else the factor given', () => {
    expect(timeScale(undefined)).toBe(1);
    expect(timeScale(' ')).toBe(1);
    expect(timeScale('3')).toBe(3);
    expect(timeScale('1.5')).toBe(1.5);
  });

  it('refuses zero, a negative or a non-numeric factor, naming the variable', () => {
    for (const bad of ['0', '-2', 'three', 'Infinity']) {
      expect(() => timeScale(bad)).toThrow(/CIVIC_TEST_TIME_SCALE must be a positive number/);
    }
  });
});
