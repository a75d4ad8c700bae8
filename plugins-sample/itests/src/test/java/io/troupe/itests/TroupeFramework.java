package io.troupe.itests;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.options;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.File;

import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.TestProbeBuilder;
import org.osgi.framework.Constants;

/**
 * The framework every in-framework test boots: Felix with Declarative Services, the Troupe API and
 * host, and the sample plugins, all installed from {@code file:} URLs under the directory that the
 * build passes in {@value #BUNDLES_PROPERTY}.
 *
 * <p>This class runs in the test JVM, outside the framework, where the bundles under test are not on
 * the class path: it must not mention their types.
 *
 * <p><b>Threading:</b> stateless; called by Pax Exam on the JUnit thread.
 */
final class TroupeFramework {

    /** System property naming the directory where the build copied the bundles (target/bundles). */
    static final String BUNDLES_PROPERTY = "troupe.itest.bundles";

    private TroupeFramework() {
    }

    /** Pax Exam's configuration: the bundles, in dependency order. */
    static Option[] configuration() {
        return options(
                // what CoreOptions.junitBundles() installs, from files instead of link:classpath:
                systemProperty("pax.exam.invoker").value("junit"),
                bundle(url("pax-exam/org.apache.servicemix.bundles.junit.jar")).startLevel(2),
                bundle(url("pax-exam/org.apache.servicemix.bundles.hamcrest.jar")),
                bundle(url("pax-exam/pax-exam-invoker-junit.jar")),
                // Declarative Services; SCR does not export the DS API itself
                bundle(url("org.osgi.util.function.jar")),
                bundle(url("org.osgi.util.promise.jar")),
                bundle(url("org.osgi.service.component.jar")),
                bundle(url("org.apache.felix.scr.jar")),
                // Troupe; the host is also the SLF4J provider, so no slf4j-api bundle
                bundle(url("troupe-api.jar")),
                bundle(url("troupe-host.jar")),
                bundle(url("troupe-sample-echo.jar")),
                bundle(url("troupe-sample-wordcount.jar")));
    }

    /** Gives the probe a real name and version, so that every installed bundle has one. */
    static TestProbeBuilder probe(TestProbeBuilder probe) {
        probe.setHeader(Constants.BUNDLE_SYMBOLICNAME, "io.troupe.itests.probe");
        probe.setHeader(Constants.BUNDLE_VERSION, "0.1.0");
        return probe;
    }

    private static String url(String name) {
        String directory = System.getProperty(BUNDLES_PROPERTY);
        if (directory == null) {
            throw new IllegalStateException("system property " + BUNDLES_PROPERTY
                    + " is not set; run these tests through Maven (mvn verify), which copies the bundles");
        }
        File file = new File(directory, name);
        if (!file.isFile()) {
            throw new IllegalStateException("missing bundle " + file + "; did the pre-integration-test phase run?");
        }
        return file.toURI().toString();
    }
}
