package io.troupe.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import javax.inject.Inject;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.Version;

import io.troupe.api.TroupeRuntime;

/**
 * Every bundle in the framework resolves and starts, and says what it is.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class InstalledBundlesIT extends FrameworkTest {

    @Inject
    private BundleContext context;

    @Test
    public void everyInstalledBundleIsActiveWithAMeaningfulSymbolicNameAndVersion() {
        List<String> problems = new ArrayList<>();
        for (Bundle bundle : context.getBundles()) {
            String name = bundle.getSymbolicName();
            if (name == null || name.isBlank()) {
                problems.add("bundle " + bundle.getBundleId() + " (" + bundle.getLocation() + ") has no symbolic name");
            }
            if (Version.emptyVersion.equals(bundle.getVersion())) {
                problems.add(name + " has no version");
            }
            if (bundle.getState() != Bundle.ACTIVE) {
                problems.add(name + " is " + Bundles.state(bundle));
            }
        }
        assertTrue(String.join("\n", problems) + "\nbundles:" + Bundles.describe(context),
                problems.isEmpty());

        assertEquals(new Version(0, 1, 0), Bundles.find(context, "io.troupe.api").getVersion());
        assertEquals(new Version(0, 1, 0), Bundles.find(context, "io.troupe.host").getVersion());
        assertEquals(new Version(1, 0, 0), Bundles.find(context, Bundles.ECHO).getVersion());
        assertEquals(new Version(1, 0, 0),
                Bundles.find(context, Bundles.WORDCOUNT).getVersion());
        Bundles.find(context, "org.apache.felix.scr");
    }

    @Test
    public void testsSeeTheApiOfTheApiBundleNotTheCopyOnTheTestClassPath() {
        Bundle origin = FrameworkUtil.getBundle(TroupeRuntime.class);
        assertEquals("io.troupe.api", origin == null ? "the class path" : origin.getSymbolicName());
    }
}
