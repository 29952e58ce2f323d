import { describe, expect, it } from 'vitest';
import { branchesOf, groupsOf, parseValue } from './conditions.ts';

describe('the condition builder model', () => {
  it('when branches with one condition each lead to the same place, then they show as one "any" group and are written back unchanged', () => {
    const branches = [
      { when: { variable: 'plan', op: 'equals', value: 'pro' }, then: 'vip' },
      { when: { variable: 'plan', op: 'equals', value: 'team' }, then: 'vip' },
      {
        when: [
          { variable: 'age', op: 'greater', value: 17 },
          { variable: 'email', op: 'notEmpty' },
        ],
        then: { dialog: 'adult' },
      },
      { when: { variable: 'x', op: 'empty' }, then: 'vip' },
    ];
    const groups = groupsOf(branches);
    expect(groups.map((g) => [g.mode, g.conditions.length, g.branches])).toEqual([
      ['any', 2, [0, 1]],
      ['all', 2, [2]],
      ['all', 1, [3]],
    ]);
    expect(branchesOf(groups)).toEqual(branches);
  });

  it('when an "all" group becomes "any", then each condition becomes a branch of its own with the group\'s target', () => {
    const [group] = groupsOf([
      {
        when: [
          { variable: 'a', op: 'notEmpty' },
          { variable: 'b', op: 'notEmpty' },
        ],
        then: 'next',
      },
    ]);
    expect(branchesOf([{ ...group!, mode: 'any' }])).toEqual([
      { when: { variable: 'a', op: 'notEmpty' }, then: 'next' },
      { when: { variable: 'b', op: 'notEmpty' }, then: 'next' },
    ]);
  });

  it('when a value is typed, then it takes the shape its operator needs', () => {
    expect(parseValue('greater', ' 18 ')).toBe(18);
    expect(parseValue('greater', 'eighteen')).toBe('eighteen');
    expect(parseValue('in', 'pro\n team \n\n')).toEqual(['pro', 'team']);
    expect(parseValue('empty', 'x')).toBeUndefined();
    expect(parseValue('equals', '42')).toBe('42');
  });
});
