package io.troupe.testkit.junit;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import io.troupe.api.TroupeRuntime;
import io.troupe.runtime.Troupe;

/**
 * A JUnit 5 extension that runs each test against a real embedded runtime ({@link Troupe}): the same
 * workers, mailboxes, timers and supervision as the server, built fresh before each test from the
 * configuration given here and closed after it, so that no actor, thread or registration outlives its
 * test. A plugin's handlers and factories are registered on it in code, as Declarative Services
 * registers them in the server.
 *
 * <pre>
 * class GreetHandlerTest {
 *
 *     &#64;RegisterExtension
 *     TroupeExtension troupe = TroupeExtension.withRuntime(b -&gt; b.workers(2).handler("greet", new GreetHandler()));
 *
 *     &#64;Test
 *     void greetsByName(Troupe runtime, TestProbe probe) {
 *         runtime.handler("acme", "greet").orElseThrow().tell(Message.of("greet", "ada"), probe.ref());
 *         probe.expectMessage("hello ada".getBytes(StandardCharsets.UTF_8));
 *     }
 * }
 * </pre>
 *
 * <p>Test methods (and {@code @BeforeEach} / {@code @AfterEach} methods) may declare parameters of type
 * {@link Troupe} or {@link TroupeRuntime}, which receive the test's runtime, and {@link TestProbe}, which
 * receive a new probe in it each (with this extension's {@linkplain #probeTimeout(Duration) probe
 * timeout}). {@link #runtime()} and {@link #createProbe()} give the same from a field.
 *
 * <p>Closing the runtime stops every actor (their {@code postStop} runs) within the builder's shutdown
 * timeout; when an actor is still running after it, the test fails, naming the runtime. Register the
 * extension on an instance field, so that each test gets its own; on a static field it serves the tests
 * of the class one after the other, and {@link #runtime()} then means the test running now.
 *
 * <p><b>Threading:</b> JUnit calls the callbacks on the test's thread; {@link #runtime()} and
 * {@link #createProbe()} are for that thread too. The runtime itself may be used from any thread.
 */
public final class TroupeExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(TroupeExtension.class);
    private static final String RUNTIME = "runtime";

    private final Consumer<Troupe.Builder> configuration;
    private volatile Duration probeTimeout = TestProbe.DEFAULT_TIMEOUT;
    private volatile Troupe current;

    private TroupeExtension(Consumer<Troupe.Builder> configuration) {
        this.configuration = Objects.requireNonNull(configuration, "configuration");
    }

    /**
     * An extension that builds each test's runtime from {@link Troupe#builder()} after {@code configuration}
     * has set it up: workers, handlers, factories, and any other setting of {@link Troupe.Builder}.
     */
    public static TroupeExtension withRuntime(Consumer<Troupe.Builder> configuration) {
        return new TroupeExtension(configuration);
    }

    /** An extension whose runtimes have every default of {@link Troupe.Builder} and nothing registered. */
    public static TroupeExtension withDefaultRuntime() {
        return new TroupeExtension(builder -> { });
    }

    /**
     * Sets the timeout of the probes this extension creates ({@value TestProbe#DEFAULT_TIMEOUT_SECONDS} s by
     * default).
     *
     * @return this extension
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public TroupeExtension probeTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("probeTimeout must be positive, was " + timeout);
        }
        probeTimeout = timeout;
        return this;
    }

    /**
     * The runtime of the test running now.
     *
     * @throws IllegalStateException outside a test (before {@code @BeforeEach}, after {@code @AfterEach})
     */
    public Troupe runtime() {
        Troupe troupe = current;
        if (troupe == null) {
            throw new IllegalStateException("TroupeExtension has no runtime outside a test: call runtime() from"
                    + " a test or a @BeforeEach/@AfterEach method, or declare a Troupe parameter");
        }
        return troupe;
    }

    /** A new probe in the runtime of the test running now. */
    public TestProbe createProbe() {
        return TestProbe.create(runtime()).timeout(probeTimeout);
    }

    /** A new probe named {@code name} in the runtime of the test running now. */
    public TestProbe createProbe(String name) {
        return TestProbe.create(runtime(), name).timeout(probeTimeout);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Troupe.Builder builder = Troupe.builder();
        configuration.accept(builder);
        Troupe troupe = builder.build();
        context.getStore(NAMESPACE).put(RUNTIME, troupe);
        current = troupe;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Troupe troupe = context.getStore(NAMESPACE).remove(RUNTIME, Troupe.class);
        current = null;
        if (troupe == null) {
            return;
        }
        troupe.close();
        if (!troupe.whenTerminated().toCompletableFuture().isDone()) {
            throw new AssertionError(troupe + " still had actors running after its shutdown timeout: a postStop"
                    + " or a receive that does not return stops the runtime from closing");
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Troupe.class || type == TroupeRuntime.class || type == TestProbe.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Troupe troupe = context.getStore(NAMESPACE).get(RUNTIME, Troupe.class);
        if (troupe == null) {
            throw new ParameterResolutionException("TroupeExtension gives a " + parameter.getParameter().getType()
                    .getSimpleName() + " only to test methods and @BeforeEach/@AfterEach methods, once it has"
                    + " started the test's runtime; not to " + parameter.getDeclaringExecutable());
        }
        if (parameter.getParameter().getType() == TestProbe.class) {
            return TestProbe.create(troupe).timeout(probeTimeout);
        }
        return troupe;
    }
}
