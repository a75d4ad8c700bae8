package io.troupe.shell;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.Descriptor;
import org.apache.felix.service.command.Parameter;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;

/**
 * The {@code troupe:} Gogo commands: {@code actors}, {@code handlers}, {@code ask} and
 * {@code deadletters}, all working on the {@link TroupeRuntime} service.
 *
 * <p>The runtime reference is optional and dynamic, so the commands stay registered while the host
 * is absent or being restarted; they then print {@code ERROR runtime.unavailable: ...}.
 *
 * <p><b>Threading:</b> Gogo calls the public methods from any session thread, concurrently. The only
 * state is the volatile runtime reference, read once per command. {@code ask} blocks its calling
 * thread (never a runtime thread) for at most {@link #ASK_TIMEOUT} plus a short grace period, and
 * returns early if that thread is interrupted (Ctrl-C in the interactive shell).
 */
@Component(service = TroupeCommands.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=actors",
    CommandProcessor.COMMAND_FUNCTION + "=handlers",
    CommandProcessor.COMMAND_FUNCTION + "=ask",
    CommandProcessor.COMMAND_FUNCTION + "=deadletters"
})
public final class TroupeCommands {

    /** How long {@code ask} lets the runtime wait for a reply. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    /** Extra wait beyond {@link #ASK_TIMEOUT}, so that the runtime's own timeout reports first. */
    private static final Duration GRACE = Duration.ofSeconds(2);

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile TroupeRuntime runtime;

    /** Used by Declarative Services. */
    public TroupeCommands() {
    }

    /** Used by tests, with a hand-written runtime. */
    TroupeCommands(TroupeRuntime runtime) {
        this.runtime = runtime;
    }

    @Descriptor("lists the live actors as a tree: id, name, tenant, origin, mailbox depth, messages processed,"
            + " failures")
    public void actors() {
        actors(System.out);
    }

    @Descriptor("lists the message names served by handlers, and the registered factory names")
    public void handlers() {
        handlers(System.out);
    }

    @Descriptor("sends a message to the handler of NAME and prints its reply (or ERROR <code>: <detail>)")
    public void ask(
            @Descriptor("tenant whose handler answers")
            @Parameter(names = {"-t", "--tenant"}, absentValue = TroupeRuntime.DEFAULT_TENANT) String tenant,
            @Descriptor("message name, for example echo") String name,
            @Descriptor("content; several words are joined by single spaces") String... content) {
        ask(System.out, tenant, name, String.join(" ", content));
    }

    @Descriptor("the number of dead letters so far")
    public Long deadletters() {
        TroupeRuntime current = runtime;
        if (current == null) {
            System.out.println(ReplyFormat.runtimeUnavailable());
            return null;
        }
        return current.deadLetterCount();
    }

    void actors(PrintStream out) {
        TroupeRuntime current = runtime;
        if (current == null) {
            out.println(ReplyFormat.runtimeUnavailable());
            return;
        }
        new ActorTree(current.actors()).print(out);
    }

    void handlers(PrintStream out) {
        TroupeRuntime current = runtime;
        if (current == null) {
            out.println(ReplyFormat.runtimeUnavailable());
            return;
        }
        Set<String> handlers = new TreeSet<>(current.handlerNames());
        Set<String> factories = new TreeSet<>(current.factoryNames());
        if (handlers.isEmpty() && factories.isEmpty()) {
            out.println("no handlers or factories registered");
            return;
        }
        handlers.forEach(name -> out.println("handler  " + name));
        factories.forEach(name -> out.println("factory  " + name));
    }

    void ask(PrintStream out, String tenant, String name, String content) {
        TroupeRuntime current = runtime;
        if (current == null) {
            out.println(ReplyFormat.runtimeUnavailable());
        } else if (name == null || name.isBlank()) {
            out.println(ReplyFormat.error(ErrorCode.BAD_REQUEST, "the message name must not be blank"));
        } else if (tenant == null || tenant.isBlank()) {
            out.println(ReplyFormat.error(ErrorCode.BAD_REQUEST, "the tenant must not be blank"));
        } else {
            out.println(askAndWait(current, tenant, Message.of(name, content)));
        }
    }

    private static String askAndWait(TroupeRuntime runtime, String tenant, Message message) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        try {
            CompletionStage<Object> stage = runtime.ask(tenant, message, ASK_TIMEOUT);
            stage.whenComplete((value, failure) -> {
                if (failure != null) {
                    reply.completeExceptionally(failure);
                } else {
                    reply.complete(value);
                }
            });
        } catch (RuntimeException e) {
            return ReplyFormat.error(e, ASK_TIMEOUT);
        }
        try {
            return ReplyFormat.text(reply.get(ASK_TIMEOUT.plus(GRACE).toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            return ReplyFormat.error(e.getCause(), ASK_TIMEOUT);
        } catch (TimeoutException e) {
            return ReplyFormat.timeout(ASK_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ReplyFormat.error("interrupted", "stopped waiting for the reply");
        }
    }
}
