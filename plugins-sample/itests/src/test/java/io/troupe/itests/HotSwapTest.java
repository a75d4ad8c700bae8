package io.troupe.itests;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Before;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.BundleContext;

import io.troupe.api.DeadLetter;
import io.troupe.api.TroupeRuntime;

/**
 * What the hot-swap test classes share: a framework with a deploy folder (the swapped actors wait up
 * to 10 s for a next revision), emptied before and after each test, the plugin jars the tests
 * deploy, and the dead letters recorded during each test (a swap must make none).
 *
 * <p><b>Threading:</b> JUnit's thread inside the framework; dead letters are recorded from any thread.
 */
public abstract class HotSwapTest extends FrameworkTest {

    @Inject
    protected TroupeRuntime runtime;

    @Inject
    protected BundleContext context;

    protected DeployFolder folder;
    protected PluginJars jars;
    protected final Queue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();
    private AutoCloseable deadLetterSubscription;

    @Override
    @Configuration
    public Option[] configuration() {
        return TroupeFramework.withDeployFolder(10);
    }

    @Before
    public void startWithAnEmptyDeployFolder() throws Exception {
        folder = DeployFolder.of(context);
        jars = PluginJars.of(context);
        folder.clear(context);
        deadLetterSubscription = runtime.subscribeDeadLetters(deadLetters::add);
    }

    @After
    public void removeWhatWasDeployed() throws Exception {
        deadLetterSubscription.close();
        folder.clear(context);
    }
}
