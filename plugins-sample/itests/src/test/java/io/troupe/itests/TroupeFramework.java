package io.troupe.itests;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.frameworkStartLevel;
import static org.ops4j.pax.exam.CoreOptions.options;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /**
     * System property naming the directory where the build copied the bundles (target/bundles); the
     * hot deployment tests also get it as a framework property, to find the counter jars.
     */
    static final String BUNDLES_PROPERTY = "troupe.itest.bundles";
    /** System property naming a directory for files the tests make (target/itest-work). */
    static final String WORK_PROPERTY = "troupe.itest.work";
    /** The deploy folder's poll interval in the hot deployment tests. */
    static final int DEPLOY_POLL_MILLIS = 100;

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
                // the OSGi log service, whose entries the host forwards into its log
                bundle(url("org.apache.felix.log.jar")),
                // Felix Metatype: the host reads its typed configuration model with it
                bundle(url("org.apache.felix.metatype.jar")),
                // Declarative Services; SCR does not export the DS API itself
                bundle(url("org.osgi.util.function.jar")),
                bundle(url("org.osgi.util.promise.jar")),
                bundle(url("org.osgi.service.component.jar")),
                bundle(url("org.apache.felix.scr.jar")),
                // Troupe; the host is also the SLF4J provider, so no slf4j-api bundle
                bundle(url("troupe-api.jar")),
                bundle(url("troupe-host.jar")),
                // Await, which the tests call inside the framework: not in the probe
                bundle(url("troupe-test-support.jar")),
                bundle(url("troupe-sample-echo.jar")),
                bundle(url("troupe-sample-wordcount.jar")));
    }

    /**
     * {@link #configuration()} with the host watching a fresh, empty deploy folder (framework property
     * {@value DeployFolder#DIR_PROPERTY}) every {@value #DEPLOY_POLL_MILLIS} ms, and swapped actors
     * waiting {@code graceSeconds} for their plugin's next revision.
     */
    static Option[] withDeployFolder(int graceSeconds) {
        Path folder;
        try {
            Path work = Files.createDirectories(Path.of(property(WORK_PROPERTY)));
            folder = Files.createTempDirectory(work, "deploy-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a deploy folder", e);
        }
        return options(
                composite(configuration()),
                // the host installs plugins at start level 80, as in the distribution, which runs at 100
                frameworkStartLevel(100),
                frameworkProperty(DeployFolder.DIR_PROPERTY).value(folder.toString()),
                frameworkProperty("troupe.deploy.pollMillis").value(Integer.toString(DEPLOY_POLL_MILLIS)),
                frameworkProperty("troupe.swap.graceSeconds").value(Integer.toString(graceSeconds)),
                frameworkProperty(BUNDLES_PROPERTY).value(property(BUNDLES_PROPERTY)));
    }

    /** Gives the probe a real name and version, so that every installed bundle has one. */
    static TestProbeBuilder probe(TestProbeBuilder probe) {
        probe.setHeader(Constants.BUNDLE_SYMBOLICNAME, "io.troupe.itests.probe");
        probe.setHeader(Constants.BUNDLE_VERSION, "0.1.0");
        return probe;
    }

    private static String url(String name) {
        File file = new File(property(BUNDLES_PROPERTY), name);
        if (!file.isFile()) {
            throw new IllegalStateException("missing bundle " + file + "; did the pre-integration-test phase run?");
        }
        return file.toURI().toString();
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name
                    + " is not set; run these tests through Maven (mvn verify), which copies the bundles");
        }
        return value;
    }
}
