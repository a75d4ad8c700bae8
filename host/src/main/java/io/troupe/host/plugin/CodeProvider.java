package io.troupe.host.plugin;

import io.troupe.api.ActorFactory;

/**
 * Who provides the code of a {@link PluginFactory}: a plugin bundle's OSGi service ({@link PluginService}), or
 * an application that registered the factory in code on the embedded runtime ({@link #inCode}). The factory's
 * handler actors, pools and named actors behave the same either way; the provider only says what to call it
 * in logs, which tenants may use it and which class loader its actors' code belongs to.
 *
 * <p><b>Threading:</b> implementations are immutable; any thread.
 */
interface CodeProvider {

    /** For logs and errors, e.g. {@code io.troupe.sample.echo 1.0.0}. */
    String description();

    /** The bundle whose swaps move the actors; empty for code registered in code, which is never swapped. */
    String symbolicName();

    /** The tenants that may use the factory's names. */
    TenantScope scope();

    /** The class loader of the code the actors created from {@code factory} belong to. */
    ClassLoader codeLoader(ActorFactory factory);

    /** The provider of a factory an application registered in code: every tenant, the factory's own loader. */
    static CodeProvider inCode() {
        return InCode.INSTANCE;
    }

    /** See {@link #inCode()}. */
    enum InCode implements CodeProvider {
        INSTANCE;

        @Override
        public String description() {
            return "registered in code";
        }

        @Override
        public String symbolicName() {
            return "";
        }

        @Override
        public TenantScope scope() {
            return TenantScope.parse(null);
        }

        @Override
        public ClassLoader codeLoader(ActorFactory factory) {
            return factory.getClass().getClassLoader();
        }
    }
}
