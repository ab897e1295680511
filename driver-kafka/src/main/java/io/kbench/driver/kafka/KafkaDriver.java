package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.ShareConsumerHandle;
import io.kbench.driver.Driver;
import io.kbench.driver.DriverConfig;
import io.kbench.driver.DriverException;
import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerListener;
import io.kbench.driver.ProducerOptions;
import io.kbench.driver.TopicSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka driver for one run: an admin client for topics, and factories for producers and consumers.
 *
 * <p>Client configs are the profile's maps as they are; the driver only forces byte-array serializers,
 * sets the client id and group id, and defaults {@code auto.offset.reset=earliest} for consumers (their
 * topics are new, so nothing sent before a late partition assignment is skipped).
 *
 * <p>Time: its clients' own time (a producer's wait for room, a consumer's join, a share commit's latency) is the
 * worker's clock, given at creation; the admin calls' deadlines are real time (the Kafka client waits in it).
 *
 * <p>Threads: called from the worker's control threads; thread-safe (the admin client is).
 */
final class KafkaDriver implements Driver {
    private final DriverConfig config;
    private final NanoClock clock;
    private Admin admin;

    KafkaDriver(DriverConfig config, NanoClock clock) {
        if (!config.common().containsKey("bootstrap.servers")) {
            throw new DriverException("no bootstrap.servers given for the Kafka driver");
        }
        this.config = config;
        this.clock = clock;
    }

    private synchronized Admin admin() {
        if (admin == null) {
            Map<String, Object> p = new HashMap<>(config.common());
            p.putAll(config.admin());
            try {
                admin = Admin.create(p);
            } catch (KafkaException e) {
                throw new DriverException("cannot create a Kafka admin client for " + bootstrap() + ": "
                        + rootMessage(e), e, false);
            }
        }
        return admin;
    }

    private String bootstrap() {
        return config.common().get("bootstrap.servers");
    }

    @Override
    public void checkReachable(Duration timeout) {
        String nobody = BootstrapProbe.nothingListening(bootstrap(), 1_000);
        if (nobody != null) {
            // not worth the client's wait: nothing can answer at any bootstrap address now
            throw new DriverException("cannot reach Kafka at " + bootstrap() + ": " + nobody, null, true);
        }
        try {
            admin().describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            String why = BootstrapProbe.explain(bootstrap(), 1_000);
            throw new DriverException("cannot reach Kafka at " + bootstrap() + ": no broker answered within "
                    + timeout.toSeconds() + " s" + (why.isEmpty() ? "" : " (" + why + ")"), e, true);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.AuthenticationException
                    || e.getCause() instanceof org.apache.kafka.common.errors.AuthorizationException) {
                // reached, but refused: the profile's security settings are wrong, not the network
                throw new DriverException("Kafka at " + bootstrap() + " refused the client: " + rootMessage(e)
                        + " (check security.protocol, sasl.* and ssl.* in the profile)", e, false);
            }
            throw new DriverException("cannot reach Kafka at " + bootstrap() + ": " + rootMessage(e), e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while contacting Kafka", e, false);
        }
    }

    @Override
    public List<String> createTopics(List<TopicSpec> topics, Duration timeout) {
        List<NewTopic> create = new ArrayList<>();
        for (TopicSpec t : topics) {
            create.add(new NewTopic(t.name(), t.partitions(), (short) t.replicationFactor()).configs(t.config()));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> created = new ArrayList<>();
        try {
            Map<String, org.apache.kafka.common.KafkaFuture<Void>> results = admin().createTopics(create).values();
            for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> r : results.entrySet()) {
                try {
                    r.getValue().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    created.add(r.getKey());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new DriverException("cannot create topic " + r.getKey() + ": " + rootMessage(e), e, false);
                    }
                }
            }
            awaitLeaders(topics, deadline);
            return created;
        } catch (TimeoutException e) {
            throw new DriverException("topics not created within " + timeout.toSeconds() + " s at " + bootstrap(), e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while creating topics", e, false);
        }
    }

    private void awaitLeaders(List<TopicSpec> topics, long deadlineNanos) throws InterruptedException, TimeoutException {
        List<String> names = topics.stream().map(TopicSpec::name).toList();
        while (true) {
            try {
                Map<String, TopicDescription> d = admin().describeTopics(names).allTopicNames().get(5, TimeUnit.SECONDS);
                boolean ready = true;
                for (TopicSpec t : topics) {
                    TopicDescription td = d.get(t.name());
                    if (td.partitions().size() != t.partitions()) {
                        throw new DriverException("topic " + t.name() + " exists with " + td.partitions().size()
                                + " partitions, the workload wants " + t.partitions());
                    }
                    ready &= td.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
                }
                if (ready) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new DriverException("cannot describe topics: " + rootMessage(e), e, false);
                }
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new TimeoutException("partitions without leader");
            }
            Thread.sleep(50);
        }
    }

    @Override
    public Map<String, Integer> describeTopics(List<String> topics, Duration timeout) {
        org.apache.kafka.clients.admin.DescribeTopicsResult described = null;
        try {
            described = admin().describeTopics(topics);
            Map<String, TopicDescription> d = described.allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, Integer> out = new java.util.LinkedHashMap<>();
            topics.forEach(t -> out.put(t, d.get(t).partitions().size()));
            return out;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                // which of them: each topic's own answer (all of them have come, the whole failed)
                List<String> missing = new java.util.ArrayList<>();
                described.topicNameValues().forEach((t, f) -> {
                    if (f.isCompletedExceptionally()) {
                        missing.add(t);
                    }
                });
                String names = missing.isEmpty() ? String.join(", ", topics)
                        : String.join(", ", missing.subList(0, Math.min(10, missing.size())))
                        + (missing.size() > 10 ? " and " + (missing.size() - 10) + " more" : "");
                throw new DriverException((missing.size() == 1 ? "topic " + names + " does not exist at "
                        : "topics " + names + " do not exist at ") + bootstrap() + ": create " + (missing.size() == 1
                        ? "it" : "them") + " first, or let kbench create " + (missing.size() == 1 ? "it" : "them")
                        + " for the run (a workload without existingTopics: true; producer-perf with --partitions N)",
                        e, false);
            }
            throw new DriverException("cannot describe topics " + topics + ": " + rootMessage(e), e, false);
        } catch (TimeoutException e) {
            throw new DriverException("topics " + topics + " not described within " + timeout.toSeconds() + " s", e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while describing topics", e, false);
        }
    }

    @Override
    public List<String> listTopics(Duration timeout) {
        String nobody = BootstrapProbe.nothingListening(bootstrap(), 1_000);
        if (nobody != null) {
            throw new DriverException("cannot list the topics of " + bootstrap() + ": " + nobody, null, true);
        }
        try {
            return List.copyOf(admin().listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            throw new DriverException("cannot list the topics of " + bootstrap() + ": " + rootMessage(e), e, false);
        } catch (TimeoutException e) {
            String why = BootstrapProbe.explain(bootstrap(), 1_000);
            throw new DriverException("cannot list the topics of " + bootstrap() + ": no broker answered within "
                    + timeout.toSeconds() + " s" + (why.isEmpty() ? "" : " (" + why + ")"), e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while listing topics", e, false);
        }
    }

    @Override
    public io.kbench.driver.ClusterFacts describeCluster(List<String> topics, Duration timeout) {
        return ClusterDescriber.describe(admin(), topics, timeout);
    }

    @Override
    public void deleteTopics(List<String> topics, Duration timeout) {
        if (topics.isEmpty()) {
            return;
        }
        try {
            admin().deleteTopics(topics).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw new DriverException("cannot delete topics " + topics + ": " + rootMessage(e), e, false);
            }
        } catch (TimeoutException e) {
            throw new DriverException("topics " + topics + " not deleted within " + timeout.toSeconds() + " s", e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String recordProblem(io.kbench.driver.ClusterFacts cluster, io.kbench.driver.RecordShape smallest) {
        // the producer's own limits were held against the same records before anything started (the coordinator's
        // check of the workload, ConfigCheck.recordProblem): here only what the cluster's topics take
        Map<String, String> p = new HashMap<>(config.common());
        p.putAll(config.producer());
        return RecordLimits.brokerProblem(p, cluster, smallest);
    }

    @Override
    public ProducerHandle createProducer(ProducerOptions options, ProducerListener listener) {
        Map<String, Object> p = new HashMap<>(config.common());
        p.putAll(config.producer());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, options.clientId());
        if (options.verification() && p.containsKey(ProducerConfig.PARTITIONER_CLASS_CONFIG)) {
            throw new DriverException("partitioner.class cannot be used with verification (kbench numbers "
                    + "messages per partition, so it chooses their partitions); set verification: false in the workload");
        }
        if (options.transactional()) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, options.transactionalId());
        }
        KafkaProducer<byte[], byte[]> producer = null;
        try {
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
            if (options.transactional()) {
                producer.initTransactions();
            }
            int batchSize = (int) number(p, ProducerConfig.BATCH_SIZE_CONFIG, 16384);
            // kbench waits for completions itself before the client's buffer pool runs out (see KafkaProducerHandle)
            long bufferMemory = number(p, ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024);
            long maxBlockMs = number(p, ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
            return new KafkaProducerHandle(producer, options.topic(), listener, options.producerId(), batchSize,
                    options.stamp(), bufferMemory / 2, maxBlockMs, clock, options.headers());
        } catch (KafkaException e) {
            if (producer != null) {
                producer.close(Duration.ZERO);
            }
            throw new DriverException("cannot create " + (options.transactional() ? "a transactional producer: "
                    : "producer: ") + rootMessage(e), e, false);
        }
    }

    @Override
    public ConsumerHandle createConsumer(String topic, String group, String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.putAll(config.common());
        p.putAll(config.consumer());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        try {
            return new KafkaConsumerHandle(new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                    topic, clock);
        } catch (KafkaException e) {
            throw new DriverException("cannot create consumer: " + rootMessage(e), e, false);
        }
    }

    /** Consumer settings a share consumer refuses (ShareConsumerConfig of Kafka 4.3.1): a profile's classic ones. */
    static final java.util.Set<String> NOT_FOR_SHARE_CONSUMERS = java.util.Set.of("auto.offset.reset",
            "enable.auto.commit", "group.instance.id", "isolation.level", "partition.assignment.strategy",
            "interceptor.classes", "session.timeout.ms", "heartbeat.interval.ms", "group.protocol",
            "group.remote.assignor");

    @Override
    public ShareConsumerHandle createShareConsumer(String topic, String group, String clientId, boolean explicit,
                                                   boolean commitSync) {
        Map<String, Object> p = new HashMap<>();
        p.putAll(config.common());
        p.putAll(config.consumer());
        NOT_FOR_SHARE_CONSUMERS.forEach(p::remove);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        p.put("share.acknowledgement.mode", explicit ? "explicit" : "implicit");
        try {
            return new KafkaShareConsumerHandle(new KafkaShareConsumer<>(p, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()), topic, explicit, commitSync, clock);
        } catch (KafkaException e) {
            throw new DriverException("cannot create share consumer: " + rootMessage(e), e, false);
        }
    }

    @Override
    public void checkShareGroups(Duration timeout) {
        ShareGroupAdmin.check(admin(), timeout);
    }

    @Override
    public void configureShareGroups(List<String> groups, Map<String, String> configs, Duration timeout) {
        ShareGroupAdmin.configure(admin(), groups, configs, timeout);
    }

    @Override
    public List<String> startShareGroups(Map<String, String> groupTopics, String reset, Duration timeout) {
        return ShareGroupAdmin.start(admin(), groupTopics, reset, timeout);
    }

    @Override
    public long shareGroupBacklog(Map<String, String> groupTopics, Duration timeout) {
        return ShareGroupAdmin.backlog(admin(), groupTopics, timeout);
    }

    @Override
    public int shareGroupMembers(java.util.Set<String> groups, String clientIdPrefix, Duration timeout) {
        return ShareGroupAdmin.members(admin(), groups, clientIdPrefix, timeout);
    }

    @Override
    public Map<String, String> alterBrokerConfigs(Map<String, String> set, List<String> delete, boolean validateOnly,
                                                  Duration timeout) {
        return BrokerConfigAdmin.alter(admin(), set, delete, validateOnly, timeout);
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            // every call here waits for its own answer, up to its own timeout: a call still pending now was given up on
            // (a topic deletion a cluster that went away did not answer, a backlog read), and waiting for it would only
            // hold up the end of the run
            admin.close(Duration.ZERO);
            admin = null;
        }
    }

    /** A numeric client setting as the client reads it (a number or its text), or the default when unset. */
    private static long number(Map<String, Object> config, String key, long otherwise) {
        Object v = config.get(key);
        return v == null ? otherwise : v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim());
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m;
    }
}
