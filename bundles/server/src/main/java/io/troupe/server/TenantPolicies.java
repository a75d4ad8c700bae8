package io.troupe.server;

import java.util.Collection;
import java.util.concurrent.CompletionStage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.TroupeRuntime;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantLifecycle;
import io.troupe.server.tenant.TenantLimits;

/**
 * Keeps the runtime in step with the tenants' files: a tenant added or changed gets its policy
 * (weight, actors, queued messages, handler names: {@link TenantLimits#policy()}) through
 * {@link TroupeRuntime#configureTenant}; a removed one has its actors stopped
 * ({@link TroupeRuntime#stopTenant}), after its sessions were asked to close. The runtime forgets a
 * stopped tenant at once, so a tenant added again gets its policy at once too, and fresh actors.
 *
 * <p>Also says, once per change, when a tenant's {@code maxFrameBytes} is above the server's: the
 * server's limit applies then.
 *
 * <p><b>Threading:</b> {@link #configured} and {@link #removed} on the tenant directory's thread, one at
 * a time; {@link #serverFrameLimit} on SCR's; stops complete on runtime threads.
 */
final class TenantPolicies implements TenantLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(TenantPolicies.class);

    private final TroupeRuntime runtime;
    private volatile int serverMaxFrameBytes;

    TenantPolicies(TroupeRuntime runtime, int serverMaxFrameBytes) {
        this.runtime = runtime;
        this.serverMaxFrameBytes = serverMaxFrameBytes;
    }

    @Override
    public void configured(Tenant tenant) {
        configure(tenant);
        warnIfAboveServer(tenant, serverMaxFrameBytes);
    }

    @Override
    public void removed(Tenant tenant) {
        String id = tenant.id();
        CompletionStage<Integer> stop;
        try {
            stop = runtime.stopTenant(id);
        } catch (RuntimeException e) {
            LOG.error("Tenant '{}' removed, but its actors could not be stopped", id, e);
            return;
        }
        stop.whenComplete((stopped, failure) -> {
            if (failure != null) {
                LOG.error("Tenant '{}' removed, but stopping its actors failed", id, failure);
            } else {
                LOG.info("Tenant '{}' removed: its {} actor(s) stopped", id, stopped);
            }
        });
    }

    /** The server's frame limit changed: warns about every tenant whose own limit is now above it. */
    void serverFrameLimit(int maxFrameBytes, Collection<Tenant> tenants) {
        if (maxFrameBytes == serverMaxFrameBytes) {
            return;
        }
        serverMaxFrameBytes = maxFrameBytes;
        for (Tenant tenant : tenants) {
            warnIfAboveServer(tenant, maxFrameBytes);
        }
    }

    private void configure(Tenant tenant) {
        try {
            runtime.configureTenant(tenant.id(), tenant.config().limits().policy());
        } catch (RuntimeException e) {
            LOG.error("Tenant '{}': the runtime refused its policy {}", tenant.id(), tenant.config().limits().policy(),
                    e);
        }
    }

    private static void warnIfAboveServer(Tenant tenant, int serverLimit) {
        int own = tenant.config().limits().maxFrameBytes();
        if (own > serverLimit) {
            LOG.warn("{}: maxFrameBytes = {} is above the server's maxFrameBytes = {} (etc/{}.cfg), which applies "
                    + "to tenant '{}' instead: a tenant's limit can only lower the server's", tenant.config().source(),
                    own, serverLimit, ServerSettings.PID, tenant.id());
        }
    }
}
