/**
 * Test doubles of the Troupe API for fast, deterministic unit tests of one actor, with no runtime,
 * no worker threads and no clock. Plugin authors depend on {@code troupe-testkit} with test scope.
 *
 * <pre>
 *   test thread
 *     |
 *     |  ActorHarness.start(factory)         creates the actor, runs preStart
 *     |  harness.deliver(message)  ------&gt;  actor.receive(TestActorContext, message)
 *     |                                          ctx.reply(x)      --&gt; TestActorRef (reply address)
 *     |                                          ctx.spawn(name)   --&gt; TestActorRef (child, recorded)
 *     |                                          ctx.timers()...   --&gt; TestTimers (recorded)
 *     |  &lt;------ reply address: messages()
 *     |
 *     |  the test plays every other actor by hand: it reads what each TestActorRef was told and
 *     |  delivers answers (or a timer's message) itself, in the order it chooses
 * </pre>
 *
 * <h2>Threading</h2>
 * Nothing here is thread-safe: every type is confined to the test's thread, which plays the part of
 * the runtime's worker. Turns run synchronously inside {@code deliver}, one at a time, so a test sees
 * every effect of a message as soon as the call returns.
 *
 * <h2>What is not simulated</h2>
 * Mailboxes, supervision, restarts, real timers and the asynchronous start of children: spawned
 * children never run unless the test runs them. For those, test on the real embedded runtime with
 * {@code io.troupe.testkit.junit.TroupeExtension} and its probes (a package of this jar that is not
 * exported to OSGi).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.troupe.testkit;
