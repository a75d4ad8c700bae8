package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.service.log.LoggerFactory;

import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;
import io.troupe.itests.plugins.LoggingActivator;

/**
 * Plugins' logs in a real framework: a plugin importing {@code org.slf4j} at {@code [1.7,2)}, as
 * third-party bundles built for SLF4J 1.7 do, and one importing {@code [2.0,3)}, both wire to the
 * host's exports, and what their actors log reaches the host's log with the actor and tenant of the
 * turn that logged (no {@code MDC.put} by the plugin), beside the plugin's own MDC entries; and the
 * entries of the OSGi log service (which the framework, SCR and FileInstall log to) reach it too.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginLoggingIT extends FrameworkTest {

    private static final Duration LOG_WAIT = Duration.ofSeconds(10);

    @Inject
    private TroupeRuntime runtime;

    @Inject
    private BundleContext context;

    private Bundle plugin;

    @After
    public void uninstall() throws Exception {
        if (plugin != null) {
            plugin.uninstall();
        }
    }

    @Test
    public void aPluginBuiltForSlf4j17LogsIntoTheHostsLogWithItsActorAndTenant() throws Exception {
        assertLogsThroughTheHost("io.troupe.itests.logging17", "itest.log17", "[1.7,2)", new Version(1, 7, 36));
    }

    @Test
    public void aPluginBuiltForSlf4j2LogsIntoTheHostsLogWithItsActorAndTenant() throws Exception {
        assertLogsThroughTheHost("io.troupe.itests.logging2", "itest.log2", "[2.0,3)", new Version(2, 0, 0));
    }

    @Test
    public void entriesOfTheOsgiLogServiceReachTheHostsLog() throws Exception {
        ServiceReference<LoggerFactory> reference = context.getServiceReference(LoggerFactory.class);
        assertNotNull("the OSGi log service runs", reference);
        LoggerFactory osgiLoggers = context.getService(reference);
        try (LogCapture log = LogCapture.start()) {
            osgiLoggers.getLogger("itest.osgi.log").error("an OSGi log entry {}", 42);
            osgiLoggers.getLogger("itest.osgi.log").warn("a warning with a cause", new IllegalStateException("boom"));

            log.awaitLine(LOG_WAIT, " ERROR [", " itest.osgi.log - an OSGi log entry 42");
            log.awaitLine(LOG_WAIT, " WARN  [", " itest.osgi.log - a warning with a cause");
            log.awaitLine(LOG_WAIT, "java.lang.IllegalStateException: boom");
        } finally {
            context.ungetService(reference);
        }
    }

    private void assertLogsThroughTheHost(String symbolicName, String handler, String range, Version floor)
            throws Exception {
        plugin = context.installBundle("itest:" + symbolicName,
                new ByteArrayInputStream(PluginJars.loggingPlugin(symbolicName, handler, range)));
        plugin.start();
        BundleWire slf4j = slf4jWire(plugin);
        assertEquals("org.slf4j comes from the host", "io.troupe.host",
                slf4j.getProvider().getBundle().getSymbolicName());
        Version wired = (Version) slf4j.getCapability().getAttributes()
                .get(PackageNamespace.CAPABILITY_VERSION_ATTRIBUTE);
        assertTrue("org.slf4j " + wired + " for " + range, wired.compareTo(floor) >= 0
                && wired.getMajor() == floor.getMajor());
        Requests.awaitHandler(runtime, handler);

        try (LogCapture log = LogCapture.start()) {
            Object reply = Requests.ask(runtime, Message.of(handler, "hello"));
            assertEquals("logged", new String((byte[]) reply, UTF_8));

            String line = log.awaitLine(LOG_WAIT, handler + " logged hello");
            assertTrue(line, line.contains(" INFO  [troupe-worker"));
            String tenant = TroupeRuntime.DEFAULT_TENANT;
            assertTrue("the runtime's entries: " + line, line.matches(".* \\{actor=handler:"
                    + handler.replace(".", "\\.") + "@" + tenant + "#\\d+, tenant=" + tenant + "\\}"));
            String withMdc = log.awaitLine(LOG_WAIT, handler + " logged hello with an MDC entry");
            assertTrue("the plugin's entry beside the runtime's: " + withMdc,
                    withMdc.matches(".* \\{actor=[^,]+, request=hello, tenant=" + tenant + "\\}"));

            Object fatal = Requests.ask(runtime, Message.of(handler, LoggingActivator.FATAL));
            assertEquals("logged", new String((byte[]) fatal, UTF_8));
            log.awaitLine(LOG_WAIT, " ERROR [troupe-worker", handler + " cannot go on");
        }
    }

    private static BundleWire slf4jWire(Bundle bundle) {
        List<BundleWire> wires = bundle.adapt(BundleWiring.class)
                .getRequiredWires(PackageNamespace.PACKAGE_NAMESPACE);
        return wires.stream()
                .filter(wire -> "org.slf4j".equals(
                        wire.getCapability().getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no org.slf4j wire among " + wires));
    }
}
