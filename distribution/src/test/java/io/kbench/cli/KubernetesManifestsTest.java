package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.kbench.coordinator.workload.Sweep;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code deployment/kubernetes}: the base and every overlay render offline with {@code kubectl kustomize};
 * every rendered object reads into fabric8's typed model of the API version it declares with no key left
 * over (a misspelt field fails); the pieces fit together (the Job's {@code dns:///} name is the headless
 * Service's, its port the workers' port, every {@code $(VAR)} is defined, the workload in the ConfigMap
 * validates); and both command lines are ones kbench accepts.
 */
class KubernetesManifestsTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).resolve("../deployment/kubernetes")
            .normalize();
    private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.of(
            "v1/Namespace", Namespace.class, "v1/ConfigMap", ConfigMap.class, "v1/Service", Service.class,
            "v1/PersistentVolumeClaim", PersistentVolumeClaim.class, "apps/v1/StatefulSet", StatefulSet.class,
            "apps/v1/Deployment", io.fabric8.kubernetes.api.model.apps.Deployment.class, "batch/v1/Job", Job.class, "networking.k8s.io/v1/NetworkPolicy",
            io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> kustomizations() throws Exception {
        List<String> dirs = new ArrayList<>(List.of("base"));
        try (var overlays = Files.list(ROOT.resolve("overlays"))) {
            overlays.filter(Files::isDirectory).map(d -> "overlays/" + d.getFileName()).sorted().forEach(dirs::add);
        }
        return dirs.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldRenderIntoStrictlyTypedObjectsThatFitTogether(String kustomization) throws Exception {
        Path kubectl = Stream.of("/usr/bin/kubectl", "/usr/local/bin/kubectl").map(Path::of).filter(Files::isExecutable)
                .findFirst().orElse(null);
        if (kubectl == null) {
            System.out.println("Kubernetes manifests test SKIPPED: no kubectl here");
            Assumptions.abort("no kubectl");
        }
        Process p = new ProcessBuilder(kubectl.toString(), "kustomize", ROOT.resolve(kustomization).toString())
                .redirectErrorStream(true).start();
        String rendered = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), rendered);

        Map<String, HasMetadata> objects = new LinkedHashMap<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(rendered)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) doc;
            String type = m.get("apiVersion") + "/" + m.get("kind");
            Class<? extends HasMetadata> cls = TYPES.get(type);
            assertNotNull(cls, kustomization + ": an object of a type this test does not know: " + type);
            HasMetadata o = JSON.convertValue(m, cls);
            List<String> leftOver = new ArrayList<>();
            unknownKeys(o, type + " " + o.getMetadata().getName(), leftOver);
            assertEquals(List.of(), leftOver, kustomization + ": keys the " + type + " schema does not have");
            objects.put(m.get("kind") + "/" + o.getMetadata().getName().replaceFirst("-[a-z0-9]{10}$", ""), o);
        }
        System.out.println(kustomization + ": " + objects.keySet());

        Service service = (Service) objects.get("Service/kbench-workers");
        StatefulSet workers = (StatefulSet) objects.get("StatefulSet/kbench-worker");
        Job job = (Job) objects.get("Job/kbench-run");
        ConfigMap workload = (ConfigMap) objects.get("ConfigMap/kbench-workload");
        ConfigMap cluster = (ConfigMap) objects.get("ConfigMap/kbench-cluster");
        assertNotNull(service);
        assertNotNull(workers);
        assertNotNull(job);
        // only the coordinator's pods reach the workers' gRPC port; the metrics port is open to scrapers
        var policy = (io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy) objects.get(
                "NetworkPolicy/kbench-workers");
        assertNotNull(policy, kustomization + ": the workers' NetworkPolicy");
        assertEquals(workers.getSpec().getTemplate().getMetadata().getLabels().get("app.kubernetes.io/name"),
                policy.getSpec().getPodSelector().getMatchLabels().get("app.kubernetes.io/name"));
        var grpcRule = policy.getSpec().getIngress().get(0);
        assertEquals(7070, grpcRule.getPorts().get(0).getPort().getIntVal());
        assertEquals(job.getSpec().getTemplate().getMetadata().getLabels().get("app.kubernetes.io/name"),
                grpcRule.getFrom().get(0).getPodSelector().getMatchLabels().get("app.kubernetes.io/name"),
                "the rule lets the coordinator's pods in");
        // the Job waits for as many workers as the StatefulSet runs
        assertTrue(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs().contains("--wait=10m"));
        assertEquals(String.valueOf(workers.getSpec().getReplicas()), cluster.getData().get("min.workers"),
                kustomization + ": min.workers is the StatefulSet's replicas");
        assertEquals("None", service.getSpec().getClusterIP(), "a headless Service: one address per worker pod");
        assertEquals(service.getMetadata().getName(), workers.getSpec().getServiceName());
        assertTrue(workers.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity() != null,
                "workers spread across nodes");
        Container worker = workers.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertNotNull(worker.getReadinessProbe());
        assertNotNull(worker.getResources().getLimits().get("memory"));
        assertTrue(workers.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot());

        resultsReader(kustomization, objects, job);

        // the worker's command line is one kbench accepts
        Main.commandLine().parseArgs(args(worker).toArray(new String[0]));

        // the Job's: $(VARS) defined, its dns:/// name the Service's, its port the workers', its workload valid
        Container coordinator = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar e : coordinator.getEnv()) {
            env.put(e.getName(), e.getValue() != null ? e.getValue()
                    : e.getValueFrom().getConfigMapKeyRef() != null
                            ? cluster.getData().get(e.getValueFrom().getConfigMapKeyRef().getKey())
                            : e.getName().equals("POD_NAMESPACE") ? "bench" : "kbench-run");
        }
        List<String> args = new ArrayList<>();
        for (String a : args(coordinator)) {
            Matcher m = Pattern.compile("\\$\\(([A-Z_]+)\\)").matcher(a);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                assertTrue(env.containsKey(m.group(1)), "$(" + m.group(1) + ") is not in the Job's env");
                m.appendReplacement(b, Matcher.quoteReplacement(env.get(m.group(1))));
            }
            args.add(m.appendTail(b).toString());
        }
        Main.commandLine().parseArgs(args.toArray(new String[0]));
        assertEquals(1, args.stream().filter(a -> a.equals("--tls") || a.equals("--insecure")).count(),
                kustomization + ": the coordinator says how it reaches workers on other hosts: --tls or --insecure");
        String workers0 = args.stream().filter(a -> a.startsWith("--workers=")).findFirst().orElseThrow();
        assertEquals("--workers=dns:///" + service.getMetadata().getName() + ".bench.svc.cluster.local:"
                + service.getSpec().getPorts().get(0).getPort(), workers0);
        assertTrue(args(worker).contains("--port=" + service.getSpec().getPorts().get(0).getPort()));
        String workloadFile = args.get(args.size() - 1);
        String mount = coordinator.getVolumeMounts().stream().filter(v -> v.getName().equals("workload")).findFirst()
                .orElseThrow().getMountPath();
        assertTrue(workloadFile.startsWith(mount + "/"), workloadFile);
        String key = workloadFile.substring(mount.length() + 1);
        assertNotNull(workload.getData().get(key), "the ConfigMap holds " + key);
        Path tmp = Files.createTempFile("k8s-workload", ".yaml");
        try {
            Files.writeString(tmp, workload.getData().get(key));
            assertFalse(Sweep.load(tmp).points().isEmpty(), "the ConfigMap's workload validates");
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The results reader: at 0 replicas (it must not hold the ReadWriteOnce volume while a Job writes it), the Job's
     * claim mounted read-only where its {@code kbench serve} reads, on a loopback address (port-forward only).
     */
    private static void resultsReader(String kustomization, Map<String, HasMetadata> objects, Job job) {
        var reader = (io.fabric8.kubernetes.api.model.apps.Deployment) objects.get("Deployment/kbench-results");
        assertNotNull(reader, kustomization + ": the results reader");
        assertEquals(0, reader.getSpec().getReplicas(), kustomization + ": the reader is scaled up by hand, after a run");
        String claim = job.getSpec().getTemplate().getSpec().getVolumes().stream().filter(v -> v.getName().equals("results"))
                .findFirst().orElseThrow().getPersistentVolumeClaim().getClaimName();
        var volume = reader.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getPersistentVolumeClaim() != null).findFirst().orElseThrow();
        assertEquals(claim, volume.getPersistentVolumeClaim().getClaimName());
        Container c = reader.getSpec().getTemplate().getSpec().getContainers().get(0);
        var mount = c.getVolumeMounts().stream().filter(m -> m.getName().equals(volume.getName())).findFirst().orElseThrow();
        assertTrue(mount.getReadOnly(), "read-only");
        List<String> args = args(c);
        assertEquals("serve", args.get(0));
        assertEquals(mount.getMountPath(), args.get(1), "it serves the volume");
        assertTrue(args.contains("--bind=127.0.0.1"), args.toString());
        assertEquals(c.getImage(), job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        Main.commandLine().parseArgs(args.toArray(new String[0]));
    }

    private static List<String> args(Container c) {
        List<String> out = new ArrayList<>(c.getCommand() == null ? List.of() : c.getCommand());
        out.addAll(c.getArgs());
        return out;
    }

    /** Every model object's keys that its type does not have (fabric8 keeps them as additional properties). */
    private static void unknownKeys(Object o, String path, List<String> out) throws Exception {
        if (o == null || !o.getClass().getName().startsWith("io.fabric8.")) {
            if (o instanceof Collection<?> c) {
                int i = 0;
                for (Object e : c) {
                    unknownKeys(e, path + "[" + i++ + "]", out);
                }
            } else if (o instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    unknownKeys(e.getValue(), path + "." + e.getKey(), out);
                }
            }
            return;
        }
        for (Method get : o.getClass().getMethods()) {
            if (get.getParameterCount() != 0 || Modifier.isStatic(get.getModifiers()) || !get.getName().startsWith("get")
                    || get.getDeclaringClass() == Object.class) {
                continue;
            }
            Object v = get.invoke(o);
            if (get.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    out.add(path + ": " + extra.keySet());
                }
            } else {
                unknownKeys(v, path + "." + get.getName().substring(3), out);
            }
        }
    }
}
