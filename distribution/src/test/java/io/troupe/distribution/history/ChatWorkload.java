package io.troupe.distribution.history;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.troupe.client.ConnectionListener;
import io.troupe.client.PushListener;
import io.troupe.client.TroupeClient;

/**
 * Members of the {@code chat} sample's rooms that record every operation in a {@link History}: for each
 * tenant and room, a few processes, each a {@link TroupeClient} that joins the room (again after each new
 * session: membership belongs to a connection), says a unique token ({@code p<process>.<n>}) at a pace, one
 * request at a time, and every {@code readEvery}-th time reads the room's history instead. Every push it gets
 * ({@value ChatChecker#PUSH}) is recorded as an observation. A room's key in the history is
 * {@code tenant/room}.
 *
 * <p><b>Threading:</b> {@link #start}, {@link #stop} and {@link #close} from the test thread; each process has a
 * sender thread, which waits for each reply; pushes and session changes arrive on the client loop's thread.
 */
public final class ChatWorkload implements AutoCloseable {

    /** Separates the messages of a {@code chat.history} reply. */
    private static final String RECORD_SEPARATOR = "\u001e";
    private static final long NOT_CONNECTED_PAUSE = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * How the members talk.
     *
     * @param membersPerRoom  processes per tenant and room
     * @param ratePerMember   requests per second per member
     * @param readEvery       one request in this many reads the history; 0: no reads
     */
    public record Settings(int membersPerRoom, double ratePerMember, int readEvery) {
    }

    private final History history;
    private final Settings settings;
    private final List<Member> members = new ArrayList<>();
    private final OutcomeCounts counts = new OutcomeCounts();
    private volatile boolean running = true;

    private ChatWorkload(History history, Settings settings) {
        this.history = history;
        this.settings = settings;
    }

    /** Connects the members of each room of each tenant in {@code tokens} (tenant to token) and starts them. */
    public static ChatWorkload start(History history, TenantConnector connector, Map<String, String> tokens,
            List<String> rooms, Settings settings) throws InterruptedException {
        ChatWorkload load = new ChatWorkload(history, settings);
        try {
            int index = 0;
            for (Map.Entry<String, String> tenant : tokens.entrySet()) {
                for (String room : rooms) {
                    for (int i = 0; i < settings.membersPerRoom(); i++) {
                        Member member = load.new Member(history.newProcess(), tenant.getKey(), room,
                                connector.requestTimeout());
                        member.client = connector.connect(tenant.getKey(), tenant.getValue(), index++, member,
                                member);
                        load.members.add(member);
                    }
                }
            }
        } catch (InterruptedException | RuntimeException | AssertionError e) {
            load.close();
            throw e;
        }
        load.members.forEach(member -> member.thread.start());
        return load;
    }

    /** The says and reads so far, by outcome. */
    public Tally tally() {
        return counts.tally();
    }

    /** Stops the members and waits for their last request's outcome; the clients stay open. */
    public void stop() throws InterruptedException {
        running = false;
        for (Member member : members) {
            member.thread.join(member.timeout.toMillis() + 10_000);
            if (member.thread.isAlive()) {
                throw new AssertionError(member.thread.getName() + " did not finish; " + tally());
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        members.forEach(member -> {
            if (member.client != null) {
                member.client.close();
            }
        });
        for (Member member : members) {
            if (member.thread.isAlive()) {
                member.thread.join(member.timeout.toMillis() + 10_000);
            }
        }
    }

    @Override
    public String toString() {
        return "chat load of " + members.size() + " members: " + tally();
    }

    /** Reads the history of each room of each tenant once, on a client of its own: the history's last word. */
    public static void finalReads(History history, TenantConnector connector, Map<String, String> tokens,
            List<String> rooms) throws Exception {
        int process = history.newProcess();
        for (Map.Entry<String, String> tenant : tokens.entrySet()) {
            try (TroupeClient client = connector.connect(tenant.getKey(), tenant.getValue(), 0,
                    new ConnectionListener() { }, null)) {
                for (String room : rooms) {
                    long op = history.invoke(process, ChatChecker.HISTORY, tenant.getKey() + "/" + room, "");
                    try {
                        byte[] reply = client.request(ChatChecker.HISTORY, room.getBytes(UTF_8))
                                .get(connector.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
                        history.ok(op, tokens(room, reply));
                    } catch (ExecutionException | TimeoutException e) {
                        ClientOutcome.of(e instanceof ExecutionException ? e.getCause() : e).record(history, op);
                        throw new AssertionError("the final read of " + tenant.getKey() + "'s room " + room
                                + " failed", e);
                    }
                }
            }
        }
    }

    /** The tokens of a {@code chat.history} reply, oldest first, separated by blanks. */
    static String tokens(String room, byte[] reply) {
        if (reply.length == 0) {
            return "";
        }
        List<String> tokens = new ArrayList<>();
        for (String message : new String(reply, UTF_8).split(RECORD_SEPARATOR, -1)) {
            tokens.add(message.startsWith(room + "\n") ? message.substring(room.length() + 1) : message);
        }
        return String.join(" ", tokens);
    }

    /**
     * One member: a client, its sender thread, and what it hears. <b>Threading:</b> the sender thread sends
     * and waits; {@link #connected} and {@link #onPush} run on the loop thread.
     */
    private final class Member implements Runnable, ConnectionListener, PushListener {

        final Thread thread;
        final Duration timeout;
        volatile TroupeClient client;
        private final int id;
        private final String tenant;
        private final String room;
        private final String key;
        private final AtomicInteger sessions = new AtomicInteger();
        private int joined = -1;
        private long said;

        Member(int id, String tenant, String room, Duration timeout) {
            this.id = id;
            this.tenant = tenant;
            this.room = room;
            this.key = tenant + "/" + room;
            this.timeout = timeout;
            this.thread = new Thread(this, "chat-p" + id + "-" + key);
            this.thread.setDaemon(true);
        }

        @Override
        public void connected(String sessionId) {
            sessions.incrementAndGet();
        }

        @Override
        public void onPush(String name, byte[] content) {
            String text = new String(content, UTF_8);
            int lineFeed = text.indexOf('\n');
            String pushedRoom = lineFeed < 0 ? "" : text.substring(0, lineFeed);
            history.observe(id, name, tenant + "/" + pushedRoom, text.substring(lineFeed + 1));
        }

        @Override
        public void run() {
            long interval = (long) (1e9 / settings.ratePerMember());
            long next = System.nanoTime();
            long requests = 0;
            try {
                while (running) {
                    next += interval;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    } else {
                        next = System.nanoTime();
                    }
                    if (!client.isConnected() || !joined()) {
                        LockSupport.parkNanos(NOT_CONNECTED_PAUSE);
                        continue;
                    }
                    if (settings.readEvery() > 0 && ++requests % settings.readEvery() == 0) {
                        read();
                    } else {
                        say();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Whether this session joined the room, joining it if not. */
        private boolean joined() throws InterruptedException {
            int session = sessions.get();
            if (joined == session) {
                return true;
            }
            try {
                client.request("chat.join", room.getBytes(UTF_8)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                joined = session;
                return true;
            } catch (ExecutionException | TimeoutException e) {
                return false; // not connected any more, or the server restarts: the next session joins
            }
        }

        private void say() throws InterruptedException {
            String token = "p" + id + "." + (++said);
            long op = history.invoke(id, ChatChecker.SAY, key, token);
            try {
                byte[] reply = client.request(ChatChecker.SAY, (room + "\n" + token).getBytes(UTF_8))
                        .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
                history.ok(op, new String(reply, UTF_8));
                counts.acknowledged();
            } catch (ExecutionException e) {
                counts.problem(history, op, e.getCause(), "say by p" + id + " in " + key);
            } catch (TimeoutException e) {
                counts.problem(history, op, e, "say by p" + id + " in " + key);
            }
        }

        private void read() throws InterruptedException {
            long op = history.invoke(id, ChatChecker.HISTORY, key, "");
            try {
                byte[] reply = client.request(ChatChecker.HISTORY, room.getBytes(UTF_8))
                        .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
                history.ok(op, tokens(room, reply));
                counts.acknowledged();
            } catch (ExecutionException e) {
                counts.problem(history, op, e.getCause(), "history read by p" + id + " in " + key);
            } catch (TimeoutException e) {
                counts.problem(history, op, e, "history read by p" + id + " in " + key);
            }
        }
    }
}
