package io.troupe.server.itest;


import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.time.Duration;
import java.util.Hashtable;
import java.util.List;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.WorkerPoolStats;
import io.troupe.testsupport.Await;
import io.troupe.testsupport.Await;

/**
 * The host's PID {@code io.troupe.host} (etc/io.troupe.host.cfg) changed while the runtime runs:
 * the worker bounds and the stall threshold apply without a restart (the monitor is restarted with
 * them, its statistics registered again), and a bad value leaves its key as it was while the other
 * keys apply. The
 * framework of these tests sets {@code troupe.workers=6}, the initial value of {@code workers}.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HostTuningIT extends ServerTest {

    private static final String HOST_PID = "io.troupe.host";

    @Inject
    private BundleContext context;

    @Inject
    private TroupeRuntime runtime;

    @After
    public void backToTheFrameworkProperties() throws IOException {
        new ServerControl(context).configAdmin().getConfiguration(HOST_PID, "?").delete();
        Await.until("the framework property troupe.workers=6 applies again", () -> workers().min() == 6,
                () -> workers().toString());
    }

    @Test
    public void newWorkerBoundsApplyWhileTheRuntimeRuns() throws IOException {
        Await.until("the framework property troupe.workers=6 is the initial value", () -> workers().min() == 6,
                () -> workers().toString());
        configure("workers", "3", "workers.max", "5");
        Await.until("the pool takes 3..5", () -> workers().min() == 3 && workers().max() == 5,
                () -> workers().toString());

        configure("workers", "7", "workers.max", "9");
        Await.until("and grows to its new minimum", () -> workers().min() == 7 && workers().current() >= 7,
                () -> workers().toString());
    }

    @Test
    public void aBadValueKeepsItsKeyAsItWasAndTheOtherKeysApply() throws IOException {
        configure("workers", "2", "workers.max", "8");
        Await.until("2..8", () -> workers().min() == 2 && workers().max() == 8, () -> workers().toString());

        // one snapshot per look: the statistics service is registered again on each change, so two
        // separate looks may straddle that (and see no service at all)
        configure("workers", "4", "workers.max", "plenty");
        Await.until("workers applies and workers.max keeps 8", () -> bounds(workers(), 4, 8),
                () -> workers().toString());

        configure("workers", "3", "workers.max", "99999");
        Await.until("workers applies and, above its maximum 4096, workers.max keeps 8",
                () -> bounds(workers(), 3, 8), () -> workers().toString());
    }

    @Test
    public void aNewStallThresholdAppliesWhileTheRuntimeRuns() throws IOException {
        long before = statsServiceId();
        configure("monitor.stallMillis", "100", "monitor.periodMillis", "20");
        Await.until("the monitor restarts with the new settings (its statistics registered again)",
                () -> statsServiceId() != before);
        TestHandlers handlers = TestHandlers.register(context);
        try {
            handlers.gate.close();
            runtime.ask("tuning", new Message(TestHandlers.GATE, "quiet".getBytes(UTF_8)), Duration.ofSeconds(30));
            Await.until("the turn waits at the gate", () -> handlers.gate.arrived.get() == 1);
            Await.until("its worker is reported stalled long before the default threshold of 2 s",
                    Duration.ofMillis(1500), () -> workers().stalled() >= 1, () -> workers().toString());
        } finally {
            handlers.close();
        }
    }

    private static boolean bounds(WorkerPoolStats workers, int min, int max) {
        return workers.min() == min && workers.max() == max;
    }

    private long statsServiceId() {
        ServiceReference<RuntimeStats> reference = context.getServiceReference(RuntimeStats.class);
        return reference == null ? -1 : (Long) reference.getProperty("service.id");
    }

    private void configure(String... keysAndValues) throws IOException {
        Hashtable<String, Object> properties = new Hashtable<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        new ServerControl(context).configAdmin().getConfiguration(HOST_PID, "?").update(properties);
    }

    /** The worker pool as the current RuntimeStats service sees it (it is registered again on a change). */
    private WorkerPoolStats workers() {
        ServiceReference<RuntimeStats> reference = context.getServiceReference(RuntimeStats.class);
        if (reference == null) {
            return new WorkerPoolStats(0, -1, -1, 0, 0, 0, 0.0, List.of());
        }
        RuntimeStats stats = context.getService(reference);
        try {
            return stats == null ? new WorkerPoolStats(0, -1, -1, 0, 0, 0, 0.0, List.of()) : stats.snapshot().workers();
        } finally {
            context.ungetService(reference);
        }
    }
}
