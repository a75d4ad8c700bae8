package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import io.troupe.api.ActorInfo;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;
import io.troupe.testsupport.Await;

/**
 * Tenants in a real framework: a plugin limited by its manifest to some tenants does not exist for
 * the others, a tenant's policy hides handler names and caps its actors, and a stopped tenant comes
 * back with fresh actors.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class TenantScopeIT extends FrameworkTest {

    private static final String SCOPED = "io.troupe.itests.scoped";
    private static final String HANDLER = "scoped.hello";

    @Inject
    private TroupeRuntime runtime;

    @Inject
    private BundleContext context;

    private Bundle scoped;

    @Before
    public void installScopedPlugin() throws Exception {
        scoped = context.installBundle("test:" + SCOPED,
                new ByteArrayInputStream(PluginJars.scopedPlugin(SCOPED, HANDLER, "acme, initech")));
        scoped.start();
        Requests.awaitHandler(runtime, HANDLER);
        Requests.awaitHandler(runtime, "echo");
    }

    @After
    public void removeScopedPlugin() throws Exception {
        scoped.uninstall();
        runtime.stopTenant("acme").toCompletableFuture().get(10, TimeUnit.SECONDS);
        runtime.stopTenant("globex").toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private String failureCode(String tenant, String name) throws InterruptedException, TimeoutException {
        try {
            runtime.ask(tenant, Message.of(name, "hi"), Requests.ASK_TIMEOUT).toCompletableFuture()
                    .get(Requests.ASK_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
            return "no failure";
        } catch (ExecutionException | CompletionException e) {
            return e.getCause() instanceof TroupeException troupe ? troupe.code() : e.getCause().toString();
        }
    }

    @Test
    public void aScopedPluginServesItsTenantsAndDoesNotExistForOthers() throws Exception {
        assertArrayEquals("logged".getBytes(UTF_8),
                (byte[]) Requests.ask(runtime, "acme", Message.of(HANDLER, "from acme")));
        assertTrue(runtime.handler("initech", HANDLER).isPresent());
        assertFalse("invisible to globex", runtime.handler("globex", HANDLER).isPresent());
        assertEquals(ErrorCode.NO_HANDLER, failureCode("globex", HANDLER));
        assertTrue("other plugins serve globex as before", runtime.handler("globex", "echo").isPresent());
    }

    @Test
    public void aTenantsPolicyHidesTheHandlersItLeavesOut() throws Exception {
        runtime.configureTenant("acme", TenantPolicy.defaults().withHandlers(Set.of("echo")));
        assertFalse(runtime.handler("acme", HANDLER).isPresent());
        assertEquals(ErrorCode.NO_HANDLER, failureCode("acme", HANDLER));
        assertTrue(runtime.handler("acme", "echo").isPresent());
        runtime.configureTenant("acme", TenantPolicy.defaults());
        assertTrue("allowed again", runtime.handler("acme", HANDLER).isPresent());
    }

    @Test
    public void aTenantAtItsActorLimitIsRefusedANewHandlerActor() throws Exception {
        runtime.configureTenant("globex", TenantPolicy.defaults().withMaxActors(1));
        Requests.ask(runtime, "globex", Message.of("echo", "one")); // the echo handler actor: 1 of 1
        assertEquals(ErrorCode.TENANT_LIMIT_ACTORS, failureCode("globex", "wordcount"));
        Requests.ask(runtime, "globex", Message.of("echo", "two")); // the existing actor still serves
    }

    @Test
    public void aStoppedTenantComesBackWithFreshActors() throws Exception {
        Requests.ask(runtime, "acme", Message.of("echo", "before"));
        Requests.ask(runtime, "acme", Message.of(HANDLER, "before"));
        long before = runtime.handler("acme", "echo").orElseThrow().id();
        long acmeActors = runtime.actors().stream().filter(actor -> "acme".equals(actor.tenant())).count();
        assertTrue(acmeActors >= 2);

        int stopped = runtime.stopTenant("acme").toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(acmeActors, stopped);
        Await.until("no actor of acme is left",
                () -> runtime.actors().stream().noneMatch(actor -> "acme".equals(actor.tenant())),
                () -> runtime.actors().stream().map(ActorInfo::toString).toList().toString());

        Requests.ask(runtime, "acme", Message.of("echo", "after"));
        assertNotEquals("a fresh handler actor", before, runtime.handler("acme", "echo").orElseThrow().id());
    }
}
