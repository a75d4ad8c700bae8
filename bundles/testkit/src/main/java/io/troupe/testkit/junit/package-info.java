/**
 * JUnit 5 tests against the real embedded runtime: {@link io.troupe.testkit.junit.TroupeExtension} starts a
 * {@link io.troupe.runtime.Troupe} before each test and closes it after, and
 * {@link io.troupe.testkit.junit.TestProbe}s are real actors in it whose messages the test expects, with
 * timeouts.
 *
 * <pre>
 *   test thread                                  runtime (Troupe: workers, mailboxes, timers)
 *     |  beforeEach: Troupe.builder()...build()  ----&gt;  handlers and factories registered in code
 *     |  actor.tell(message, probe.ref())        ----&gt;  actor under test  --reply--&gt;  probe's actor
 *     |  probe.expectMessage(...)  &lt;--- blocking queue, up to the timeout ---------------+
 *     |  afterEach: troupe.close()               ----&gt;  every actor stops (postStop), threads end
 * </pre>
 *
 * Next to the package {@code io.troupe.testkit} (one actor, on the test's thread, no runtime), this is the
 * second tier: the actors as they run in the server, concurrently. A test needs {@code troupe-host} (the
 * runtime) and JUnit Jupiter on its class path besides {@code troupe-testkit}.
 *
 * <h2>Why this package is not exported</h2>
 * The test kit's bundle exports {@code io.troupe.testkit} only. This package needs the embedded runtime,
 * {@code io.troupe.runtime}, which the host bundle keeps private (inside Felix the runtime is the
 * {@code TroupeRuntime} service, never a class to build), and JUnit, which no Troupe installation has: it
 * can only ever run on a plain test class path. So the bundle imports both optionally and exports
 * nothing of it; it still resolves in a framework with {@code io.troupe.api} alone.
 *
 * <h2>Threading</h2>
 * The extension's callbacks and the probes' expectations run on the test's thread; the actors, the
 * probes' included, run on the runtime's workers and hand messages to the test thread through each
 * probe's queue.
 */
package io.troupe.testkit.junit;
