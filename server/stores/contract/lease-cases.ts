import { expect, it } from 'vitest';
import type { Store } from '../../ports/store.ts';

export function leaseCases(store: () => Store): void {
  it('when a key is free, then one acquirer gets it and others get null until it is released', async () => {
    const held = await store().acquireLease('user:a', 'node-1', 1000, 100);
    expect(held).toMatchObject({ until: 1100 });
    expect(await store().acquireLease('user:a', 'node-2', 1000, 200)).toBeNull();
    // Other keys are independent.
    expect(await store().acquireLease('user:b', 'node-2', 1000, 200)).not.toBeNull();
    await store().releaseLease('user:a', held!.token);
    expect(await store().acquireLease('user:a', 'node-2', 1000, 300)).not.toBeNull();
  });

  it('when the holder stops renewing, then the key is taken over once the lease ran out, and the old token neither renews nor releases it', async () => {
    const old = await store().acquireLease('k', 'dead-node', 1000, 0);
    expect(await store().acquireLease('k', 'node-2', 1000, 999)).toBeNull();
    const taken = await store().acquireLease('k', 'node-2', 1000, 1000);
    expect(taken).not.toBeNull();
    expect(taken!.token).not.toBe(old!.token);
    expect(await store().renewLease('k', old!.token, 1000, 1001)).toBe(false);
    await store().releaseLease('k', old!.token);
    expect(await store().acquireLease('k', 'node-3', 1000, 1002)).toBeNull();
  });

  it('when the holder renews, then the lease runs from the renewal', async () => {
    const held = await store().acquireLease('k', 'node-1', 1000, 0);
    expect(await store().renewLease('k', held!.token, 1000, 800)).toBe(true);
    expect(await store().acquireLease('k', 'node-2', 1000, 1500)).toBeNull();
    expect(await store().acquireLease('k', 'node-2', 1000, 1800)).not.toBeNull();
  });

  it('when many acquire a free key at once, then exactly one gets it', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store().acquireLease('race', `node-${i}`, 5000, 10)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('when many take over a run-out lease at once, then exactly one gets it', async () => {
    await store().acquireLease('race', 'dead-node', 100, 0);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store().acquireLease('race', `node-${i}`, 5000, 200)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('when a token is unknown or malformed, then renew says false and release changes nothing', async () => {
    const held = await store().acquireLease('k', 'node-1', 1000, 0);
    expect(await store().renewLease('k', 'not-a-token', 1000, 10)).toBe(false);
    expect(await store().renewLease('other', held!.token, 1000, 10)).toBe(false);
    await store().releaseLease('k', 'not-a-token');
    await store().releaseLease('other', held!.token);
    expect(await store().acquireLease('k', 'node-2', 1000, 10)).toBeNull();
  });
}
