package io.troupe.server.itest;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.options;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.File;

import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.TestProbeBuilder;
import org.osgi.framework.Constants;


/**
 * The framework every in-framework test of the server boots: Felix with Declarative Services,
 * ConfigAdmin and Metatype, the Troupe API, host and protocol and the sample plugins, all installed from
 * {@code file:} URLs. The server bundle is not among them: each test class configures it (port,
 * timeouts, tenants) through ConfigAdmin and then installs and starts it ({@link ServerControl}), as
 * the distribution starts it last.
 *
 * <p>This class runs in the test JVM, outside the framework, where the bundles under test are not on
 * the class path: it must not mention their types.
 *
 * <p><b>Threading:</b> stateless; called by Pax Exam on the JUnit thread.
 */
final class ServerFramework {

    /** System property naming the directory where the build copied the bundles (target/bundles). */
    static final String BUNDLES_PROPERTY = "troupe.itest.bundles";
    private ServerFramework() {
    }

    /** Pax Exam's configuration: the bundles, in dependency order. */
    static Option[] configuration() {
        return options(
                // Handlers of these tests block workers on purpose (gates): have a few.
                frameworkProperty("troupe.workers").value("6"),
                frameworkProperty("troupe.ioThreads").value("2"),
                // each test registers and withdraws its handlers: not worth a line each time
                systemProperty("troupe.log.level.io.troupe.host.plugin").value("WARN"),
                systemProperty("pax.exam.invoker").value("junit"),
                // the tests poll with HELLOs until a tenant is served: not an attack to throttle
                systemProperty("troupe.auth.throttle").value("false"),
                bundle(url("pax-exam/org.apache.servicemix.bundles.junit.jar")).startLevel(2),
                bundle(url("pax-exam/org.apache.servicemix.bundles.hamcrest.jar")),
                bundle(url("pax-exam/pax-exam-invoker-junit.jar")),
                bundle(url("org.osgi.util.function.jar")),
                bundle(url("org.osgi.util.promise.jar")),
                bundle(url("org.osgi.service.component.jar")),
                bundle(url("org.apache.felix.scr.jar")),
                bundle(url("org.apache.felix.configadmin.jar")),
                // the typed configuration model: the server reads its metatype documents with it
                bundle(url("org.osgi.service.log.jar")),
                bundle(url("org.apache.felix.metatype.jar")),
                bundle(url("troupe-api.jar")),
                bundle(url("troupe-host.jar")),
                bundle(url("troupe-protocol.jar")),
                // Await and TestClient, which the tests call inside the framework: not in the probe
                bundle(url("troupe-test-support.jar")),
                bundle(url("troupe-sample-echo.jar")),
                bundle(url("troupe-sample-wordcount.jar")));
    }

    /** Gives the probe a real name and version. */
    static TestProbeBuilder probe(TestProbeBuilder probe) {
        probe.setHeader(Constants.BUNDLE_SYMBOLICNAME, "io.troupe.server.itest.probe");
        probe.setHeader(Constants.BUNDLE_VERSION, "0.1.0");
        return probe;
    }

    private static String url(String name) {
        return fileUrl(new File(property(BUNDLES_PROPERTY), name));
    }

    /** The {@code file:} URL of a bundle the build made; fails clearly when it is missing. */
    static String fileUrl(File file) {
        if (!file.isFile()) {
            throw new IllegalStateException("missing bundle " + file + "; did the pre-integration-test phase run?");
        }
        return file.toURI().toString();
    }

    /** A system property the build sets (the native container shares the test JVM's properties). */
    static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name
                    + " is not set; run these tests through Maven (mvn verify), which copies the bundles");
        }
        return value;
    }
}
