<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>AICoreMetrics</name>
    <message>
        <source>No AI Core PMU data in this report. Collect it with {0} (task-based) — the metric group decides which columns appear.</source>
        <translation>此报告没有 AI Core PMU 数据。请用 {0}（task-based）采集——采集的指标组决定出现哪些列。</translation>
    </message>
    <message>
        <source>Metric group collected: {0}.</source>
        <translation>采集的指标组：{0}。</translation>
    </message>
    <message>
        <source>Metric group collected: unknown (the columns match no --aic-metrics group).</source>
        <translation>采集的指标组：未知（这些列与任何 --aic-metrics 指标组都不匹配）。</translation>
    </message>
    <message>
        <source>Columns are split into AIC (cube core) and AIV (vector core), as on 910B-class chips.</source>
        <translation>各列分为 AIC（Cube 核）和 AIV（Vector 核），与 910B 类芯片一致。</translation>
    </message>
    <message>
        <source>Memory Bound &gt; 1 (highlighted) means the MTE2 ratio exceeds the larger of the cube and vector ratios: the operator waits on memory.</source>
        <translation>内存瓶颈 &gt; 1（高亮）表示 MTE2 占比超过 Cube 与 Vector 占比中的较大者：算子在等待内存。</translation>
    </message>
    <message>
        <source>Only AI Core tasks are listed: {0} tasks of other types ({1}) have no PMU metrics.</source>
        <translation>仅列出 AI Core 任务：其他类型的 {0} 个任务（{1}）没有 PMU 指标。</translation>
    </message>
    <message>
        <source>Time and ratio of each pipeline (vector, cube/mac, scalar, MTE1/2/3, fixpipe): shows which unit bounds an operator.</source>
        <translation>各流水线（vector、cube/mac、scalar、MTE1/2/3、fixpipe）的耗时与占比：显示算子受哪个单元限制。</translation>
    </message>
    <message>
        <source>Does not show cache hit rates or memory bandwidth.</source>
        <translation>不显示缓存命中率和内存带宽。</translation>
    </message>
    <message>
        <source>Cube (MAC fp16/int8) and vector (fp32/fp16/int32/misc) instruction ratios and the cube and vector FLOP counts: shows how the compute units are used.</source>
        <translation>Cube（MAC fp16/int8）与 Vector（fp32/fp16/int32/misc）指令占比以及 Cube 和 Vector 的浮点运算次数：显示计算单元的使用情况。</translation>
    </message>
    <message>
        <source>Does not show pipeline stalls or memory traffic.</source>
        <translation>不显示流水线停顿和内存流量。</translation>
    </message>
    <message>
        <source>Main-memory and L2 read/write bandwidth per operator.</source>
        <translation>每个算子的主存与 L2 读写带宽。</translation>
    </message>
    <message>
        <source>Does not show on-chip buffer traffic.</source>
        <translation>不显示片上缓冲区流量。</translation>
    </message>
    <message>
        <source>L0A/L0B/L0C read/write bandwidth.</source>
        <translation>L0A/L0B/L0C 读写带宽。</translation>
    </message>
    <message>
        <source>Does not show main memory or UB traffic.</source>
        <translation>不显示主存或 UB 流量。</translation>
    </message>
    <message>
        <source>Unified Buffer read/write bandwidth of the vector unit.</source>
        <translation>Vector 单元的 Unified Buffer 读写带宽。</translation>
    </message>
    <message>
        <source>Does not show L0 or main memory.</source>
        <translation>不显示 L0 或主存。</translation>
    </message>
    <message>
        <source>Bank and bank-group conflicts and vector waits.</source>
        <translation>Bank 与 bank group 冲突以及 Vector 等待。</translation>
    </message>
    <message>
        <source>Does not show bandwidth.</source>
        <translation>不显示带宽。</translation>
    </message>
    <message>
        <source>L2 cache hit rates and allocations.</source>
        <translation>L2 缓存命中率与分配。</translation>
    </message>
    <message>
        <source>Does not show pipeline utilisation.</source>
        <translation>不显示流水线利用率。</translation>
    </message>
    <message>
        <source>Memory access volume by path.</source>
        <translation>按通路统计的内存访问量。</translation>
    </message>
    <message>
        <source>Per-pipeline execution ratios on newer chips.</source>
        <translation>较新芯片上各流水线的执行占比。</translation>
    </message>
    <message>
        <source>Does not show memory bandwidth.</source>
        <translation>不显示内存带宽。</translation>
    </message>
</context>
<context>
    <name>About</name>
    <message>
        <source>&lt;h3&gt;Ascend Workbench {0}&lt;/h3&gt;&lt;p&gt;A fast native workbench for Huawei Ascend NPU developers: model conversion, dump configuration, profiling views, baseline and accuracy comparison, driven on a remote Ascend machine over SSH.&lt;/p&gt;&lt;p&gt;Without Ascend hardware the CANN tools are played by the built-in &lt;b&gt;simulated toolkit&lt;/b&gt;, always labelled as simulated.&lt;/p&gt;&lt;p&gt;&lt;small&gt;Python {1} · Qt {2} · PySide6 {3}&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Ascend Workbench {0}&lt;/h3&gt;&lt;p&gt;面向华为昇腾 NPU 开发者的高速原生工作台：模型转换、Dump 配置、性能分析视图、基线比较与精度比对，通过 SSH 在远端昇腾设备上执行。&lt;/p&gt;&lt;p&gt;没有昇腾硬件时，CANN 工具由内置的&lt;b&gt;模拟工具包&lt;/b&gt;扮演，并始终标注为模拟。&lt;/p&gt;&lt;p&gt;&lt;small&gt;Python {1} · Qt {2} · PySide6 {3}&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>AccuracyAnalyzer</name>
    <message>
        <source>Check the input preprocessing: mean/scale, channel order (RGB/BGR), layout (NCHW/NHWC) and AIPP settings must match the framework's.</source>
        <translation>检查输入预处理：mean/scale、通道顺序（RGB/BGR）、数据排布（NCHW/NHWC）和 AIPP 设置必须与框架中的一致。</translation>
    </message>
    <message>
        <source>Check quantization: compare against a non-quantized model; calibrate again or skip this layer.</source>
        <translation>检查量化：与未量化的模型进行比对；重新校准，或跳过此层的量化。</translation>
    </message>
    <message>
        <source>Check fusion: the op may be a fused op; compare with the fusion rule (om JSON) or disable the fusion pattern.</source>
        <translation>检查融合：该算子可能是融合算子；请对照融合规则（om JSON）进行比对，或关闭对应的融合规则。</translation>
    </message>
    <message>
        <source>Check post-processing: output order, data type (float16 overflow) and the decoding of the results.</source>
        <translation>检查后处理：输出顺序、数据类型（float16 溢出）以及结果的解码。</translation>
    </message>
    <message>
        <source>NPU Dump Folder</source>
        <translation>NPU Dump 文件夹</translation>
    </message>
    <message>
        <source>the dump files of the offline model (any level of the dump folder)</source>
        <translation>离线模型的 Dump 文件（Dump 文件夹的任一层级）</translation>
    </message>
    <message>
        <source>Ground Truth Folder</source>
        <translation>标杆数据文件夹</translation>
    </message>
    <message>
        <source>{op_name}.{output_index}.{timestamp}.npy files</source>
        <translation>{op_name}.{output_index}.{timestamp}.npy 文件</translation>
    </message>
    <message>
        <source>Fusion Rule</source>
        <translation>融合规则</translation>
    </message>
    <message>
        <source>om JSON (*.json);;All files (*)</source>
        <translation>om JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>optional: the om JSON (atc --mode=1) maps fused ops to originals</source>
        <translation>可选：om JSON（atc --mode=1）将融合算子映射到原始算子</translation>
    </message>
    <message>
        <source>This computer (numpy, no CANN needed)</source>
        <translation>本机（numpy，无需 CANN）</translation>
    </message>
    <message>
        <source>{0}: msaccucmp.py</source>
        <translation>{0}：msaccucmp.py</translation>
    </message>
    <message>
        <source>The folders are on the machine</source>
        <translation>文件夹位于所选机器上</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比对</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>比对</translation>
    </message>
    <message>
        <source>NPU dump:</source>
        <translation>NPU Dump：</translation>
    </message>
    <message>
        <source>Ground truth:</source>
        <translation>标杆数据：</translation>
    </message>
    <message>
        <source>Fusion rule:</source>
        <translation>融合规则：</translation>
    </message>
    <message>
        <source>Algorithms:</source>
        <translation>算法：</translation>
    </message>
    <message>
        <source>Cosine threshold:</source>
        <translation>余弦相似度阈值：</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行位置：</translation>
    </message>
    <message>
        <source>Accuracy comparison</source>
        <translation>精度比对</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>msaccucmp's result CSV layout</source>
        <translation>msaccucmp 结果 CSV 的格式</translation>
    </message>
    <message>
        <source>Export xlsx…</source>
        <translation>导出 xlsx…</translation>
    </message>
    <message>
        <source>Show Selected Op in Graph</source>
        <translation>在计算图中显示所选算子</translation>
    </message>
    <message>
        <source>Centre and select the clicked row's op in the model graph (the fusion rule's om JSON)</source>
        <translation>在模型计算图（融合规则的 om JSON）中居中并选中所点击行的算子</translation>
    </message>
    <message>
        <source>Show in Graph</source>
        <translation>在计算图中显示</translation>
    </message>
    <message>
        <source>Centre and select the first op below the threshold in the model graph (the fusion rule's om JSON)</source>
        <translation>在模型计算图（融合规则的 om JSON）中居中并选中第一个低于阈值的算子</translation>
    </message>
    <message>
        <source>Choose the NPU dump and the ground truth, then Compare.</source>
        <translation>选择 NPU Dump 和标杆数据，然后点击“比对”。</translation>
    </message>
    <message>
        <source>Choose the NPU dump folder and the ground truth folder.</source>
        <translation>请选择 NPU Dump 文件夹和标杆数据文件夹。</translation>
    </message>
    <message>
        <source>Tick at least one algorithm.</source>
        <translation>请至少勾选一种算法。</translation>
    </message>
    <message>
        <source>{0}: no such file or folder</source>
        <translation>{0}：文件或文件夹不存在</translation>
    </message>
    <message>
        <source>Accuracy comparison of {0}</source>
        <translation>{0} 的精度比对</translation>
    </message>
    <message>
        <source>Accuracy comparison of {0} on {1}</source>
        <translation>在 {1} 上对 {0} 进行精度比对</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比对…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>{0} rows ({1} outputs) compared; {2} without a value (see CompareFailReason).</source>
        <translation>已比对 {0} 行（{1} 个输出）；{2} 行无值（见 CompareFailReason）。</translation>
    </message>
    <message>
        <source>Every compared output reaches cosine similarity {0}.</source>
        <translation>所有已比对输出的余弦相似度均达到 {0}。</translation>
    </message>
    <message>
        <source>First op below the threshold:</source>
        <translation>第一个低于阈值的算子：</translation>
    </message>
    <message>
        <source>{0} ({1}), output {2}: cosine similarity {3} &amp;lt; {4}</source>
        <translation>{0}（{1}），输出 {2}：余弦相似度 {3} &amp;lt; {4}</translation>
    </message>
    <message>
        <source>What to check next:</source>
        <translation>下一步检查：</translation>
    </message>
    <message>
        <source>NPU dump: {0}</source>
        <translation>NPU Dump：{0}</translation>
    </message>
    <message>
        <source>Ground truth: {0}</source>
        <translation>标杆数据：{0}</translation>
    </message>
    <message>
        <source>Reason: {0}</source>
        <translation>原因：{0}</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>Export Result</source>
        <translation>导出结果</translation>
    </message>
    <message>
        <source>Not saved: {0}</source>
        <translation>未保存：{0}</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>Model Accuracy Analyzer</source>
        <translation>模型精度分析器</translation>
    </message>
</context>
<context>
    <name>AdvancedPage</name>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Outputs, precision, logging and any other ATC flag.</source>
        <translation>输出、精度、日志及其他 ATC 参数。</translation>
    </message>
    <message>
        <source>One type for all outputs</source>
        <translation>所有输出使用同一类型</translation>
    </message>
    <message>
        <source>A type per output</source>
        <translation>每个输出分别指定类型</translation>
    </message>
    <message>
        <source>(model default)</source>
        <translation>（模型默认）</translation>
    </message>
    <message>
        <source>Output (node:index)</source>
        <translation>输出 (node:index)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>node:index;node:index (default: the model's outputs)</source>
        <translation>node:index;node:index（默认：模型的输出）</translation>
    </message>
    <message>
        <source>Pick…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Choose output nodes from the model's graph</source>
        <translation>从模型的图中选择输出节点</translation>
    </message>
    <message>
        <source>(ATC default)</source>
        <translation>（ATC 默认）</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>0 — off</source>
        <translation>0 — 关闭</translation>
    </message>
    <message>
        <source>1 — on (inputs with few channels, e.g. images with AIPP)</source>
        <translation>1 — 开启（通道数较少的输入，例如使用 AIPP 的图像）</translation>
    </message>
    <message>
        <source>default: &lt;project's remote folder&gt;/atc or ~/ascend-workbench/atc/…</source>
        <translation>默认：&lt;工程的远端目录&gt;/atc 或 ~/ascend-workbench/atc/…</translation>
    </message>
    <message>
        <source>one flag per line, e.g.
fusion_switch_file=fusion.cfg
op_debug_level=1</source>
        <translation>每行一个参数，例如
fusion_switch_file=fusion.cfg
op_debug_level=1</translation>
    </message>
    <message>
        <source>Documented ATC flags: {0}</source>
        <translation>ATC 参数说明：{0}</translation>
    </message>
    <message>
        <source>Output type:</source>
        <translation>输出类型：</translation>
    </message>
    <message>
        <source>Output nodes:</source>
        <translation>输出节点：</translation>
    </message>
    <message>
        <source>Precision mode:</source>
        <translation>精度模式：</translation>
    </message>
    <message>
        <source>Op implementation mode:</source>
        <translation>算子实现模式：</translation>
    </message>
    <message>
        <source>Log level:</source>
        <translation>日志级别：</translation>
    </message>
    <message>
        <source>Small-channel optimisation:</source>
        <translation>小通道优化：</translation>
    </message>
    <message>
        <source>Working folder on the host:</source>
        <translation>主机上的工作目录：</translation>
    </message>
    <message>
        <source>Other flags:</source>
        <translation>其他参数：</translation>
    </message>
    <message>
        <source>Other flags, line {0}: expected name=value, got '{1}'</source>
        <translation>其他参数，第 {0} 行：应为 name=value，实际为“{1}”</translation>
    </message>
    <message>
        <source>Other flags, line {0}: --{1} has its own field in the wizard; set it there</source>
        <translation>其他参数，第 {0} 行：--{1} 在向导中有专门的字段，请在那里设置</translation>
    </message>
</context>
<context>
    <name>Advisor</name>
    <message>
        <source>Rank {rank} computes {excess} longer than its peers (step {step})</source>
        <translation>Rank {rank} 的计算时间比同组 rank 长 {excess}（迭代 {step}）</translation>
    </message>
    <message>
        <source>The other ranks wait for this one at every collective. Look at its own report: a slower or throttled device (npu-smi: temperature, frequency, errors), more work on it (uneven data or pipeline split), host contention on its server, or operators that run on AI CPU only there.</source>
        <translation>其他 rank 在每次集合通信时都在等待它。请查看它自己的报告：设备较慢或降频（npu-smi：温度、频率、错误），分到的工作更多（数据或流水线切分不均），所在服务器上主机资源争抢，或只在它上面运行于 AI CPU 的算子。</translation>
    </message>
    <message>
        <source>Its computing time</source>
        <translation>它的计算时间</translation>
    </message>
    <message>
        <source>Median of its peers {peers}</source>
        <translation>同组 rank {peers} 的中位数</translation>
    </message>
    <message>
        <source>Ratio to the median</source>
        <translation>与中位数之比</translation>
    </message>
    <message>
        <source>Slow in steps</source>
        <translation>慢的迭代数</translation>
    </message>
    <message>
        <source>Mean wait of the ranks sharing its groups</source>
        <translation>同通信组 rank 的平均等待时间</translation>
    </message>
    <message>
        <source>Its own wait</source>
        <translation>它自身的等待时间</translation>
    </message>
    <message>
        <source>Link {src} -&gt; {dst} ({transport}) reaches {bandwidth}, {ratio} of its transport's median</source>
        <translation>链路 {src} -&gt; {dst}（{transport}）带宽为 {bandwidth}，为同类链路中位数的 {ratio}</translation>
    </message>
    <message>
        <source>One link is slower than the others of its kind. Check the link's hardware and configuration (hccn_tool for RDMA: link state, errors, PFC / DSCP settings; HCCS: the board), whether other traffic shares it, and the ranks' placement.</source>
        <translation>这条链路比同类链路慢。检查链路的硬件和配置（RDMA 用 hccn_tool 查看链路状态、错误计数、PFC / DSCP 设置；HCCS 检查单板），是否有其他流量共用该链路，以及各 rank 的部署位置。</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Median of the {transport} links</source>
        <translation>{transport} 链路的中位数</translation>
    </message>
    <message>
        <source>Transit size</source>
        <translation>传输量</translation>
    </message>
    <message>
        <source>Transit time</source>
        <translation>传输时间</translation>
    </message>
    <message>
        <source>Pipeline stage {stage} waits {share} of its time in bubbles</source>
        <translation>流水线 stage {stage} 有 {share} 的时间处于空泡中</translation>
    </message>
    <message>
        <source>The pipeline stages wait for each other. Use more micro-batches per step (gradient accumulation), an interleaved (virtual pipeline) schedule, and balance the layers between the stages so that no stage computes much longer than the others.</source>
        <translation>流水线各 stage 在互相等待。每个迭代使用更多的 micro-batch（梯度累积），采用交错（虚拟流水线）调度，并在各 stage 之间均衡层数，使任何 stage 的计算时间都不明显长于其他 stage。</translation>
    </message>
    <message>
        <source>Bubble time</source>
        <translation>空泡时间</translation>
    </message>
    <message>
        <source>Stage time (without bubbles)</source>
        <translation>Stage 时间（不含空泡）</translation>
    </message>
    <message>
        <source>Bubble share</source>
        <translation>空泡占比</translation>
    </message>
    <message>
        <source>Ranks of the stage</source>
        <translation>该 stage 的 rank</translation>
    </message>
    <message>
        <source>Communication not overlapped with computation takes {share} of the step ({time})</source>
        <translation>未被计算掩盖的通信占用 {share} 的迭代时间（{time}）</translation>
    </message>
    <message>
        <source>The device waits for communication. Overlap it with computation: bucket gradients so their AllReduce starts during the backward pass, prefetch parameters (ZeRO / FSDP), use the communication-computation fusion operators, and reduce the communication volume (larger data-parallel groups only where the links allow it).</source>
        <translation>设备在等待通信。让通信与计算重叠：对梯度分桶，使其 AllReduce 在反向计算期间开始；预取参数（ZeRO / FSDP）；使用通算融合算子；并减少通信量（仅在链路允许时才扩大数据并行组）。</translation>
    </message>
    <message>
        <source>Communication not overlapped</source>
        <translation>未被掩盖的通信</translation>
    </message>
    <message>
        <source>Share of the step</source>
        <translation>占迭代的比例</translation>
    </message>
    <message>
        <source>All communication</source>
        <translation>全部通信</translation>
    </message>
    <message>
        <source>Overlapped with computation</source>
        <translation>与计算重叠的部分</translation>
    </message>
    <message>
        <source>Read from</source>
        <translation>数据来源</translation>
    </message>
    <message>
        <source>{share} of the {transport} communication operators move less than {limit} each</source>
        <translation>{share} 的 {transport} 通信算子每次传输少于 {limit}</translation>
    </message>
    <message>
        <source>Many small transfers make the host launch bottleneck and waste the link. In data parallelism increase the batch size or the gradient accumulation and the gradient bucket size; with ZeRO-3 consider ZeRO-2/1 if memory allows; use the affinity optimisers and fused operators that issue fewer communication operators.</source>
        <translation>大量小包传输会造成主机下发瓶颈并浪费链路带宽。数据并行时增大 batch size、梯度累积步数和梯度分桶大小；使用 ZeRO-3 时，若内存允许可改用 ZeRO-2/1；使用亲和优化器和融合算子以减少通信算子的数量。</translation>
    </message>
    <message>
        <source>Operators with a {transport} transfer</source>
        <translation>有 {transport} 传输的算子</translation>
    </message>
    <message>
        <source>Smaller than {limit}</source>
        <translation>小于 {limit}</translation>
    </message>
    <message>
        <source>Share of small operators (msprof-analyze flags 20 %)</source>
        <translation>小包算子占比（msprof-analyze 以 20 % 为阈值）</translation>
    </message>
    <message>
        <source>Transit time of the small operators</source>
        <translation>小包算子的传输时间</translation>
    </message>
    <message>
        <source>{count} communication operators move data sizes not aligned to 512 bytes</source>
        <translation>{count} 个通信算子的数据量未按 512 字节对齐</translation>
    </message>
    <message>
        <source>SDMA transfers whose size is not a multiple of 512 bytes run slower. Pad the tensors you communicate (or the bucket sizes) to multiples of 512 bytes; ask the HCCL engineers for the operator's data layout where it is not yours to change.</source>
        <translation>数据量不是 512 字节整数倍的 SDMA 传输更慢。把要通信的张量（或分桶大小）填充到 512 字节的整数倍；若数据布局不由你决定，请联系 HCCL 工程师。</translation>
    </message>
    <message>
        <source>Unaligned operators</source>
        <translation>未对齐的算子</translation>
    </message>
    <message>
        <source>Unaligned transfers</source>
        <translation>未对齐的传输</translation>
    </message>
    <message>
        <source>Time of the unaligned transfers</source>
        <translation>未对齐传输的时间</translation>
    </message>
    <message>
        <source>Share of the SDMA transfer time</source>
        <translation>占 SDMA 传输时间的比例</translation>
    </message>
    <message>
        <source>{count} communication operators reach less than {limit} while MatMul runs beside them</source>
        <translation>{count} 个通信算子在 MatMul 并行执行时带宽低于 {limit}</translation>
    </message>
    <message>
        <source>Computation and communication share the memory bandwidth. Compare a run with the overlap switched off (or the communication moved) to see whether the overlap still pays; where it does not, schedule the communication next to lighter operators.</source>
        <translation>计算与通信共享内存带宽。与关闭重叠（或调整通信位置）的运行结果对比，判断重叠是否仍有收益；若没有收益，把通信安排在较轻的算子旁执行。</translation>
    </message>
    <message>
        <source>Operators below the limit</source>
        <translation>低于阈值的算子</translation>
    </message>
    <message>
        <source>MatMul tasks running beside them</source>
        <translation>与其并行的 MatMul 任务</translation>
    </message>
    <message>
        <source>{count} communication operators reach less than {limit} on {transport}</source>
        <translation>{count} 个通信算子在 {transport} 上的带宽低于 {limit}</translation>
    </message>
    <message>
        <source>The link runs under what it should give. Check for bandwidth contention with concurrent computation, the placement of the ranks (HCCS inside a server, RDMA between them), the NIC and switch configuration for RDMA, and compare with a run of the same operators alone.</source>
        <translation>链路带宽低于应有水平。检查是否与并发的计算争抢带宽、各 rank 的部署位置（服务器内走 HCCS，服务器间走 RDMA）、RDMA 的网卡与交换机配置，并与单独运行相同算子的结果对比。</translation>
    </message>
    <message>
        <source>Slow operators</source>
        <translation>慢算子</translation>
    </message>
    <message>
        <source>Expected bandwidth of {transport}</source>
        <translation>{transport} 的预期带宽</translation>
    </message>
    <message>
        <source>Slowest operator</source>
        <translation>最慢的算子</translation>
    </message>
    <message>
        <source>Median bandwidth of the large operators</source>
        <translation>大包算子的带宽中位数</translation>
    </message>
    <message>
        <source>{op_type} runs on AI CPU although it has an AI Core kernel ({count} tasks, {share} of device time)</source>
        <translation>{op_type} 有 AI Core 内核却在 AI CPU 上运行（{count} 个任务，占设备时间 {share}）</translation>
    </message>
    <message>
        <source>AI CPU kernels are much slower than AI Core ones. Find out why {op_type} did not get its AI Core kernel (an input data type, format or shape the kernel does not take, or an older CANN) and change the call so that it runs on the AI Core, or replace it by equivalent operators.</source>
        <translation>AI CPU 内核比 AI Core 内核慢得多。请查明 {op_type} 为何没有使用其 AI Core 内核（该内核不支持的输入数据类型、格式或 shape，或 CANN 版本较旧），修改调用使其在 AI Core 上运行，或用等价算子替换。</translation>
    </message>
    <message>
        <source>AI CPU tasks</source>
        <translation>AI CPU 任务</translation>
    </message>
    <message>
        <source>Time on AI CPU</source>
        <translation>AI CPU 耗时</translation>
    </message>
    <message>
        <source>Share of device time</source>
        <translation>占设备时间</translation>
    </message>
    <message>
        <source>Longest task</source>
        <translation>最长任务</translation>
    </message>
    <message>
        <source>AI CPU operators take {share} of stream {stream} ({time})</source>
        <translation>AI CPU 算子占流 {stream} 的 {share}（{time}）</translation>
    </message>
    <message>
        <source>The stream waits for slow AI CPU kernels ({op_types}). Move this work to AI Core operators (supported data types, equivalent operators) or out of the step.</source>
        <translation>该流在等待缓慢的 AI CPU 内核（{op_types}）。请将这部分工作改用 AI Core 算子（支持的数据类型、等价算子），或移出训练步。</translation>
    </message>
    <message>
        <source>Busy time of the stream</source>
        <translation>流的忙碌时间</translation>
    </message>
    <message>
        <source>AI CPU time on the stream</source>
        <translation>流上的 AI CPU 耗时</translation>
    </message>
    <message>
        <source>AI CPU share of the stream</source>
        <translation>AI CPU 占流的比例</translation>
    </message>
    <message>
        <source>AI CPU tasks on the stream</source>
        <translation>流上的 AI CPU 任务</translation>
    </message>
    <message>
        <source>{op_type} runs on AI CPU with {dtypes} data ({count} tasks, {share} of device time)</source>
        <translation>{op_type} 因 {dtypes} 数据在 AI CPU 上运行（{count} 个任务，占设备时间 {share}）</translation>
    </message>
    <message>
        <source>Many AI Core kernels do not take 64-bit data types: {op_type} has an AI Core kernel and probably fell back to AI CPU for its {dtypes} tensors. Convert them to a supported type before the call (int64 to int32, double to float32) where the values allow it.</source>
        <translation>许多 AI Core 内核不支持 64 位数据类型：{op_type} 有 AI Core 内核，很可能因其 {dtypes} 张量回退到了 AI CPU。在数值范围允许时，请在调用前将其转换为支持的类型（int64 转 int32，double 转 float32）。</translation>
    </message>
    <message>
        <source>Data types</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>No task ran on the AI Core or vector cores: {top_share} of the device time is {top_type} ({count} tasks)</source>
        <translation>没有任务在 AI Core 或 Vector 核上运行：{top_share} 的设备时间是 {top_type}（{count} 个任务）</translation>
    </message>
    <message>
        <source>The device worked, but none of its compute cores did: every task ran on the AI CPU or only copied memory or communicated (most of all {op_types}). Check that the model and its inputs really are on the NPU (model.npu() and tensor.npu(), or from torch_npu.contrib import transfer_to_npu at the top of the script); that these operator types have AI Core kernels in this CANN version and get data types they take (float16, bfloat16 or float32 rather than int64 or double); and that dynamic shapes do not send them elsewhere: try torch_npu.npu.set_compile_mode(jit_compile=False).</source>
        <translation>设备在工作，但它的计算核都没有工作：所有任务都在 AI CPU 上运行，或只是拷贝内存、进行通信（主要是 {op_types}）。请检查模型及其输入是否真的在 NPU 上（model.npu() 和 tensor.npu()，或在脚本开头 from torch_npu.contrib import transfer_to_npu）；这些算子类型在此 CANN 版本中是否有 AI Core 内核，且输入的数据类型是内核支持的（float16、bfloat16 或 float32，而不是 int64 或 double）；以及动态 shape 是否使它们被分配到别处：可尝试 torch_npu.npu.set_compile_mode(jit_compile=False)。</translation>
    </message>
    <message>
        <source>Device tasks</source>
        <translation>设备任务</translation>
    </message>
    <message>
        <source>Device time</source>
        <translation>设备时间</translation>
    </message>
    <message>
        <source>{type} share of the device time</source>
        <translation>{type} 占设备时间的比例</translation>
    </message>
    <message>
        <source>Memory-bound operators take {share} of the device time ({count} tasks)</source>
        <translation>内存瓶颈算子占设备时间的 {share}（{count} 个任务）</translation>
    </message>
    <message>
        <source>These operators wait for data from global memory (MTE2) longer than they compute, most of all {op_types}. Fuse them with their neighbours, use larger or aligned shapes, keep matrix inputs in the NZ format and avoid extra casts and copies.</source>
        <translation>这些算子等待全局内存数据（MTE2）的时间长于计算时间，最多的是 {op_types}。请将它们与相邻算子融合，使用更大或对齐的 shape，矩阵输入保持 NZ 格式，并避免多余的类型转换和拷贝。</translation>
    </message>
    <message>
        <source>Memory-bound tasks</source>
        <translation>内存瓶颈任务</translation>
    </message>
    <message>
        <source>Their time</source>
        <translation>其耗时</translation>
    </message>
    <message>
        <source>Highest memory bound</source>
        <translation>最高内存瓶颈值</translation>
    </message>
    <message>
        <source>AI Core operators that keep no unit busy take {share} of the device time ({count} tasks)</source>
        <translation>没有任何单元处于繁忙状态的 AI Core 算子占设备时间的 {share}（{count} 个任务）</translation>
    </message>
    <message>
        <source>No pipe of these operators (cube, vector, scalar, MTE1/2/3) is busy more than 80 % of their time, most of all {op_types}: the cores wait. Check their block dim against the core count, their tiling and shapes; tune them with AOE or fuse small operators.</source>
        <translation>这些算子的任何流水（cube、vector、scalar、MTE1/2/3）的繁忙时间都不超过其耗时的 80 %，最多的是 {op_types}：核在等待。请对照核数检查其 block dim，检查切分（tiling）和 shape；用 AOE 调优，或融合小算子。</translation>
    </message>
    <message>
        <source>Tasks without a bound pipe</source>
        <translation>无瓶颈流水的任务</translation>
    </message>
    <message>
        <source>{op_type} on inputs {shape}: {headroom} of room to a cube bound ({count} tasks, {share} of device time)</source>
        <translation>{op_type}（输入 {shape}）距 Cube 瓶颈尚有 {headroom} 的优化空间（{count} 个任务，占设备时间 {share}）</translation>
    </message>
    <message>
        <source>These matrix multiplications move enough data to matter, have cube-friendly shapes and still keep neither the cube unit (MAC ratio under 80 %) nor the loads (MTE2 ratio under 95 %) busy: the core waits. Check the operator's tiling and block dim against the core count, tune it with AOE, or batch or fuse the multiplications so that each call does more work.</source>
        <translation>这些矩阵乘法的数据量足够大、shape 对 Cube 亲和，却既没有让 Cube 单元忙起来（MAC 占比低于 80 %），也没有让搬运忙起来（MTE2 占比低于 95 %）：核在等待。请对照核数检查算子的切分（tiling）和 block dim，用 AOE 调优，或合并、融合这些矩阵乘法，让每次调用做更多的工作。</translation>
    </message>
    <message>
        <source>Mean MAC ratio</source>
        <translation>平均 MAC 占比</translation>
    </message>
    <message>
        <source>Mean MTE2 ratio</source>
        <translation>平均 MTE2 占比</translation>
    </message>
    <message>
        <source>Room to a bound</source>
        <translation>距瓶颈的空间</translation>
    </message>
    <message>
        <source>Data moved (all calls)</source>
        <translation>搬运数据量（全部调用）</translation>
    </message>
    <message>
        <source>All {count} operators run with dynamic shapes</source>
        <translation>全部 {count} 个算子均以动态 shape 运行</translation>
    </message>
    <message>
        <source>Dynamic-shape operators are compiled or selected at run time. If the input shapes do not change, use the binary kernels and no online compilation: call torch_npu.npu.set_compile_mode(jit_compile=False) and set torch_npu.npu.config.allow_internal_format = False at the start of the script.</source>
        <translation>动态 shape 算子在运行时编译或选择内核。若输入 shape 不变，请使用二进制内核并关闭在线编译：在脚本开头调用 torch_npu.npu.set_compile_mode(jit_compile=False)，并设置 torch_npu.npu.config.allow_internal_format = False。</translation>
    </message>
    <message>
        <source>Dynamic-shape tasks</source>
        <translation>动态 shape 任务</translation>
    </message>
    <message>
        <source>Operator types</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>{op_type} on inputs {shape}: inner axes not multiples of 256 ({count} tasks, {share} of device time)</source>
        <translation>输入为 {shape} 的 {op_type}：内轴不是 256 的倍数（{count} 个任务，占设备时间 {share}）</translation>
    </message>
    <message>
        <source>Matrix multiplications run fastest when the inner (last) axis of each input is a multiple of 256 elements. Pad or reshape these matrices (inner axes {axes}) or choose such sizes in the model.</source>
        <translation>当每个输入的内轴（最后一维）为 256 个元素的倍数时，矩阵乘法最快。请对这些矩阵（内轴 {axes}）进行填充或调整形状，或在模型中选用这样的尺寸。</translation>
    </message>
    <message>
        <source>Inner axes</source>
        <translation>内轴</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务数</translation>
    </message>
    <message>
        <source>FlashAttentionScore with head dim {head_dim} and sequence length {seq}: not multiples of 128 ({count} tasks, {share} of device time)</source>
        <translation>FlashAttentionScore 的 head dim 为 {head_dim}、序列长度为 {seq}：不是 128 的倍数（{count} 个任务，占设备时间 {share}）</translation>
    </message>
    <message>
        <source>FlashAttention kernels run fastest when the head dimension and the sequence length are multiples of 128. Pad the sequence to a multiple of 128, or use a head dimension of 128 where the model allows it.</source>
        <translation>当 head 维度和序列长度都是 128 的倍数时，FlashAttention 内核最快。请将序列填充到 128 的倍数，或在模型允许时使用 128 的 head 维度。</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>Head 维度</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>{length} operators in a row ({op_types}) run {count} times and mostly move data: a fusion candidate ({share} of device time)</source>
        <translation>{length} 个连续算子（{op_types}）运行了 {count} 次，主要在搬运数据：可考虑融合（占设备时间 {share}）</translation>
    </message>
    <message>
        <source>Each of these small operators reads its inputs from global memory and writes its result back (memory transfers take {mte} of their core time). One fused operator moves the data once: use a fused API of torch_npu for the pattern or write one Ascend C kernel for it.</source>
        <translation>这些小算子各自从全局内存读取输入并写回结果（内存搬运占其核耗时的 {mte}）。融合为一个算子后数据只需搬运一次：请使用 torch_npu 针对该模式的融合 API，或为其编写一个 Ascend C 内核。</translation>
    </message>
    <message>
        <source>Operators in the sequence</source>
        <translation>序列中的算子数</translation>
    </message>
    <message>
        <source>Memory transfers of their core time</source>
        <translation>内存搬运占核耗时</translation>
    </message>
    <message>
        <source>Vector operators bound by their pipes take {share} of the device time ({op_types})</source>
        <translation>受自身流水限制的 Vector 算子占设备时间的 {share}（{op_types}）</translation>
    </message>
    <message>
        <source>These vector operators keep their own pipes busy ({bounds}: vector unit, MTE2 loads, MTE3 stores), so they cannot run faster as they are. Reduce their work: fuse them with their neighbours, avoid extra casts and copies, use smaller data types where the accuracy allows.</source>
        <translation>这些 Vector 算子的流水已处于繁忙状态（{bounds}：向量单元、MTE2 读入、MTE3 写出），现状下无法更快。请减少其工作量：与相邻算子融合，避免多余的类型转换和拷贝，在精度允许时使用更小的数据类型。</translation>
    </message>
    <message>
        <source>Bound pipes</source>
        <translation>瓶颈流水</translation>
    </message>
    <message>
        <source>The steps take {e2e} end to end: computing {computing}, communication not overlapped {not_overlapped}, free {free}</source>
        <translation>迭代端到端耗时 {e2e}：计算 {computing}，未被掩盖的通信 {not_overlapped}，空闲 {free}</translation>
    </message>
    <message>
        <source>An overview of where the step time goes (msprof-analyze's end-to-end analysis): the other findings say what to change; the Steps tab shows each step's breakdown.</source>
        <translation>迭代时间的去向概览（即 msprof-analyze 的整网耗时分析）：其他问题说明该改什么；“迭代”页签给出每个迭代的拆分。</translation>
    </message>
    <message>
        <source>End-to-end time</source>
        <translation>端到端耗时</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>The device is idle {share} of the step time ({idle} of {total})</source>
        <translation>设备在 {share} 的迭代时间内空闲（{total} 中的 {idle}）</translation>
    </message>
    <message>
        <source>The device waits for work. Where host activity fills its idle time the host is the bottleneck: keep the task queue on (TASK_QUEUE_ENABLE=1 or 2), bind the process to cores, avoid synchronisations (.item(), .cpu(), prints) inside the step, use fused operators and larger batches so each launch carries more work; otherwise look at what the gaps wait for.</source>
        <translation>设备在等待任务。若空闲时间内主机一直在忙，则瓶颈在主机（Host Bound）：保持任务队列开启（TASK_QUEUE_ENABLE=1 或 2），将进程绑核，避免在迭代中同步（.item()、.cpu()、print），使用融合算子和更大的 batch，使每次下发承载更多计算；否则查看这些间隙在等待什么。</translation>
    </message>
    <message>
        <source>Device idle time</source>
        <translation>设备空闲时间</translation>
    </message>
    <message>
        <source>Share of the step time</source>
        <translation>占迭代时间的比例</translation>
    </message>
    <message>
        <source>Host activity during the idle time</source>
        <translation>空闲期间主机活动占比</translation>
    </message>
    <message>
        <source>Gaps between device tasks of {min_gap} or more</source>
        <translation>设备任务之间 {min_gap} 及以上的间隙</translation>
    </message>
    <message>
        <source>Largest gap</source>
        <translation>最大间隙</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代数</translation>
    </message>
    <message>
        <source>Data loading takes {share} of the step time ({time})</source>
        <translation>数据加载占用 {share} 的迭代时间（{time}）</translation>
    </message>
    <message>
        <source>The step waits for its input. Use more DataLoader workers (num_workers), pin_memory=True and prefetching, keep the data on fast local disk, avoid archive formats (tar, zip) and check that no other process (core binding, preprocessing) slows the loader down.</source>
        <translation>迭代在等待输入数据。增加 DataLoader 的进程数（num_workers），设置 pin_memory=True 并开启预取，把数据放在高速本地盘上，避免使用归档格式（tar、zip），并检查是否有其他进程（绑核、预处理）拖慢了数据加载。</translation>
    </message>
    <message>
        <source>Data loading time</source>
        <translation>数据加载时间</translation>
    </message>
    <message>
        <source>Data loading calls</source>
        <translation>数据加载调用次数</translation>
    </message>
    <message>
        <source>Longest call (msprof-analyze flags 10 ms)</source>
        <translation>最长一次调用（msprof-analyze 以 10 ms 为阈值）</translation>
    </message>
    <message>
        <source>Operators are compiled {count} times during the steps ({time})</source>
        <translation>迭代期间算子被编译 {count} 次（{time}）</translation>
    </message>
    <message>
        <source>Operators compiled at run time stall the launches. Use the binary kernels: torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format=False; keep input shapes static (pad to fixed buckets) so an operator is not compiled again for every new shape.</source>
        <translation>运行时编译算子会阻塞下发。请使用二进制算子：torch_npu.npu.set_compile_mode(jit_compile=False) 以及 torch_npu.npu.config.allow_internal_format=False；保持输入形状固定（填充到固定的档位），避免算子因每个新形状而重新编译。</translation>
    </message>
    <message>
        <source>Compilations</source>
        <translation>编译次数</translation>
    </message>
    <message>
        <source>Compilation time</source>
        <translation>编译时间</translation>
    </message>
    <message>
        <source>Host API</source>
        <translation>主机 API</translation>
    </message>
    <message>
        <source>{api} can replace {count} operator sequences ({pattern})</source>
        <translation>{api} 可替换 {count} 处算子序列（{pattern}）</translation>
    </message>
    <message>
        <source>A fused NPU API does the work of this operator sequence in one call. Replace the sequence by it where the semantics match (see the torch_npu API reference); profile with with_stack=True to see the call stacks that lead to each sequence.</source>
        <translation>一个融合的 NPU 亲和 API 可以一次调用完成这段算子序列的工作。在语义一致的地方用它替换该序列（参见 torch_npu API 参考）；采集时设置 with_stack=True 可以看到每处序列的调用栈。</translation>
    </message>
    <message>
        <source>Occurrences</source>
        <translation>出现次数</translation>
    </message>
    <message>
        <source>Operator sequence</source>
        <translation>算子序列</translation>
    </message>
    <message>
        <source>Host time of the sequences</source>
        <translation>这些序列的主机耗时</translation>
    </message>
    <message>
        <source>The task queue is switched off (TASK_QUEUE_ENABLE={value})</source>
        <translation>任务队列已关闭（TASK_QUEUE_ENABLE={value}）</translation>
    </message>
    <message>
        <source>With TASK_QUEUE_ENABLE=0 the Python thread launches every operator itself and the device waits for it. Unset it or export TASK_QUEUE_ENABLE=1 (2 also moves more of the launch work off the main thread).</source>
        <translation>TASK_QUEUE_ENABLE=0 时由 Python 线程亲自下发每个算子，设备只能等待。请取消该设置或 export TASK_QUEUE_ENABLE=1（设为 2 还会把更多下发工作移出主线程）。</translation>
    </message>
    <message>
        <source>Value of TASK_QUEUE_ENABLE</source>
        <translation>TASK_QUEUE_ENABLE 的值</translation>
    </message>
    <message>
        <source>Operators run synchronously (ASCEND_LAUNCH_BLOCKING={value})</source>
        <translation>算子以同步方式执行（ASCEND_LAUNCH_BLOCKING={value}）</translation>
    </message>
    <message>
        <source>ASCEND_LAUNCH_BLOCKING=1 makes every launch wait for its operator: a debugging setting that serialises host and device. export ASCEND_LAUNCH_BLOCKING=0 (or unset it) for training.</source>
        <translation>ASCEND_LAUNCH_BLOCKING=1 使每次下发都等待算子执行完：这是调试用的设置，会让主机和设备串行。训练时请 export ASCEND_LAUNCH_BLOCKING=0（或取消该设置）。</translation>
    </message>
    <message>
        <source>Value of ASCEND_LAUNCH_BLOCKING</source>
        <translation>ASCEND_LAUNCH_BLOCKING 的值</translation>
    </message>
    <message>
        <source>{count} environment settings can slow the run</source>
        <translation>{count} 项环境设置可能拖慢运行</translation>
    </message>
    <message>
        <source>Change the settings listed (each line says what to set), then profile again. These are the environment variables msprof-analyze's advisor checks.</source>
        <translation>按列出的建议修改这些设置（每行说明应如何设置），然后重新采集性能数据。这些是 msprof-analyze advisor 检查的环境变量。</translation>
    </message>
    <message>
        <source>ASCEND_GLOBAL_LOG_LEVEL (debug/info logging slows training; export ASCEND_GLOBAL_LOG_LEVEL=3)</source>
        <translation>ASCEND_GLOBAL_LOG_LEVEL（debug/info 级日志会拖慢训练；export ASCEND_GLOBAL_LOG_LEVEL=3）</translation>
    </message>
    <message>
        <source>HCCL_RDMA_TC (RoCE DSCP value; must match the network's configuration)</source>
        <translation>HCCL_RDMA_TC（RoCE 报文的 DSCP 值；须与网络配置一致）</translation>
    </message>
    <message>
        <source>HCCL_RDMA_SL (RDMA NIC priority; must match the PFC priority)</source>
        <translation>HCCL_RDMA_SL（RDMA 网卡优先级；须与 PFC 优先级一致）</translation>
    </message>
    <message>
        <source>ACLNN_CACHE_LIMIT (aclnn operator cache; when host bound export ACLNN_CACHE_LIMIT=100000)</source>
        <translation>ACLNN_CACHE_LIMIT（aclnn 算子缓存；主机瓶颈时 export ACLNN_CACHE_LIMIT=100000）</translation>
    </message>
    <message>
        <source>HOST_CACHE_CAPACITY (dynamic-shape cache off; export HOST_CACHE_CAPACITY=20)</source>
        <translation>HOST_CACHE_CAPACITY（动态形状缓存未开启；export HOST_CACHE_CAPACITY=20）</translation>
    </message>
    <message>
        <source>PYTORCH_NPU_ALLOC_CONF (export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True against fragmentation)</source>
        <translation>PYTORCH_NPU_ALLOC_CONF（为减少内存碎片，export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True）</translation>
    </message>
    <message>
        <source>HCCL_ALGO (a fixed communication algorithm; unset it to let HCCL choose)</source>
        <translation>HCCL_ALGO（固定了通信算法；取消该设置，由 HCCL 自行选择）</translation>
    </message>
</context>
<context>
    <name>AdvisorExport</name>
    <message>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Scheduling</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Table row</source>
        <translation>表格行</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Advisor findings</source>
        <translation>专家建议结果</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>What</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Start (ns)</source>
        <translation>开始 (ns)</translation>
    </message>
    <message>
        <source>Duration (ns)</source>
        <translation>时长 (ns)</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>No findings.</source>
        <translation>未发现问题。</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>{shown} of {total} items</source>
        <translation>共 {total} 项中的 {shown} 项</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>rank {rank}</source>
        <translation>Rank {rank}</translation>
    </message>
</context>
<context>
    <name>AdvisorPane</name>
    <message>
        <source>Running the advisor…</source>
        <translation>正在运行专家建议…</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <source>Export HTML…</source>
        <translation>导出 HTML…</translation>
    </message>
    <message>
        <source>Export Excel…</source>
        <translation>导出 Excel…</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>What</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Start (ns)</source>
        <translation>开始 (ns)</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Findings: {0} ({1})</source>
        <translation>问题：{0} 个（{1}）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show the selected evidence item in its view</source>
        <translation>在所属视图中显示选中的证据项</translation>
    </message>
    <message>
        <source>The advisor could not run: {0}</source>
        <translation>专家建议无法运行：{0}</translation>
    </message>
    <message>
        <source>No findings: none of the {0} rules found a problem.</source>
        <translation>未发现问题：{0} 条规则均未发现问题。</translation>
    </message>
    <message>
        <source>Select a finding to see its facts, advice and evidence.</source>
        <translation>选择一个问题，查看其事实、建议和证据。</translation>
    </message>
    <message>
        <source>{0} · rule {1}</source>
        <translation>{0} · 规则 {1}</translation>
    </message>
    <message>
        <source>What to try: {0}</source>
        <translation>可以尝试：{0}</translation>
    </message>
    <message>
        <source>No evidence items.</source>
        <translation>没有证据项。</translation>
    </message>
    <message>
        <source>Evidence: the top {0} of {1} items. Double-click or Show: go there.</source>
        <translation>证据：共 {1} 项中的前 {0} 项。双击或点击“显示”即可跳转。</translation>
    </message>
    <message>
        <source>Evidence: {0} items. Double-click or Show: go there.</source>
        <translation>证据：{0} 项。双击或点击“显示”即可跳转。</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>HTML page (*.html)</source>
        <translation>HTML 页面 (*.html)</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>Export Advisor Findings</source>
        <translation>导出专家建议结果</translation>
    </message>
    <message>
        <source>Wrote {0}</source>
        <translation>已写入 {0}</translation>
    </message>
</context>
<context>
    <name>AippPage</name>
    <message>
        <source>Preprocessing (AIPP)</source>
        <translation>预处理（AIPP）</translation>
    </message>
    <message>
        <source>Let the AI Core convert and normalise images before the model: written as the --insert_op_conf file.</source>
        <translation>让 AI Core 在模型执行前对图像进行转换和归一化：写入 --insert_op_conf 文件。</translation>
    </message>
    <message>
        <source>Insert AIPP preprocessing (--insert_op_conf)</source>
        <translation>插入 AIPP 预处理（--insert_op_conf）</translation>
    </message>
    <message>
        <source>Edit the configuration here</source>
        <translation>在此编辑配置</translation>
    </message>
    <message>
        <source>Use an existing file:</source>
        <translation>使用已有文件：</translation>
    </message>
    <message>
        <source>an AIPP .cfg file</source>
        <translation>AIPP .cfg 文件</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Edit It Here</source>
        <translation>在此编辑</translation>
    </message>
    <message>
        <source>Load the file into the editor (the file itself is not changed)</source>
        <translation>将文件加载到编辑器中（不会修改文件本身）</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Save the configuration as an AIPP file (protobuf text)</source>
        <translation>将配置另存为 AIPP 文件（protobuf 文本格式）</translation>
    </message>
    <message>
        <source>File preview</source>
        <translation>文件预览</translation>
    </message>
    <message>
        <source>Add Op</source>
        <translation>添加算子</translation>
    </message>
    <message>
        <source>Another aipp_op block, for another model input</source>
        <translation>另一个 aipp_op 块，用于另一个模型输入</translation>
    </message>
    <message>
        <source>Remove Op</source>
        <translation>移除算子</translation>
    </message>
    <message>
        <source>related_input_rank: the model input (0-based) this op preprocesses</source>
        <translation>related_input_rank：此算子预处理的模型输入（从 0 开始）</translation>
    </message>
    <message>
        <source>AIPP op:</source>
        <translation>AIPP 算子：</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>Model input (related_input_rank):</source>
        <translation>模型输入（related_input_rank）：</translation>
    </message>
    <message>
        <source>Dynamic AIPP (parameters given at run time)</source>
        <translation>动态 AIPP（参数在运行时给出）</translation>
    </message>
    <message>
        <source>support_rotation</source>
        <translation>support_rotation</translation>
    </message>
    <message>
        <source>max_src_image_size (bytes):</source>
        <translation>max_src_image_size（字节）：</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>Source image</source>
        <translation>源图像</translation>
    </message>
    <message>
        <source>Input format:</source>
        <translation>输入格式：</translation>
    </message>
    <message>
        <source>Width (src_image_size_w):</source>
        <translation>宽度（src_image_size_w）：</translation>
    </message>
    <message>
        <source>Height (src_image_size_h):</source>
        <translation>高度（src_image_size_h）：</translation>
    </message>
    <message>
        <source>Crop</source>
        <translation>裁剪</translation>
    </message>
    <message>
        <source>start (w, h):</source>
        <translation>起点 (w, h)：</translation>
    </message>
    <message>
        <source>size (w, h):</source>
        <translation>尺寸 (w, h)：</translation>
    </message>
    <message>
        <source>Colour-space conversion (csc_switch)</source>
        <translation>色域转换（csc_switch）</translation>
    </message>
    <message>
        <source>rbuv_swap_switch</source>
        <translation>rbuv_swap_switch</translation>
    </message>
    <message>
        <source>ax_swap_switch</source>
        <translation>ax_swap_switch</translation>
    </message>
    <message>
        <source>YUV420SP → RGB</source>
        <translation>YUV420SP → RGB</translation>
    </message>
    <message>
        <source>Fill the matrix and input biases for JPEG-decoded YUV420SP (BT.601 full range) to RGB, as in Huawei's samples</source>
        <translation>按华为样例，填入从 JPEG 解码的 YUV420SP（BT.601 全范围）转换到 RGB 的矩阵和输入偏置</translation>
    </message>
    <message>
        <source>matrix</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>input bias</source>
        <translation>输入偏置</translation>
    </message>
    <message>
        <source>output bias</source>
        <translation>输出偏置</translation>
    </message>
    <message>
        <source>Normalisation per channel: (pixel − mean − min) × var_reci</source>
        <translation>按通道归一化：(pixel − mean − min) × var_reci</translation>
    </message>
    <message>
        <source>channel {0}</source>
        <translation>通道 {0}</translation>
    </message>
    <message>
        <source>aipp_op {0} (input {1})</source>
        <translation>aipp_op {0}（输入 {1}）</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>AIPP configuration is invalid. Reason: {0}_{1}: expected {2}, got {3}.</source>
        <translation>AIPP 配置无效。原因：{0}_{1}：应为{2}，实际为 {3}。</translation>
    </message>
    <message>
        <source>AIPP File</source>
        <translation>AIPP 文件</translation>
    </message>
    <message>
        <source>AIPP configuration (*.cfg *.config *.txt);;All files (*)</source>
        <translation>AIPP 配置 (*.cfg *.config *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save AIPP File</source>
        <translation>保存 AIPP 文件</translation>
    </message>
    <message>
        <source>AIPP configuration (*.cfg);;All files (*)</source>
        <translation>AIPP 配置 (*.cfg);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>AlignDialog</name>
    <message>
        <source>group {0} · {1} · wait spread {2} ms</source>
        <translation>通信组 {0} · {1} · 等待差 {2} ms</translation>
    </message>
    <message>
        <source>Open Timelines Aligned</source>
        <translation>对齐打开时间线</translation>
    </message>
    <message>
        <source>Rank {0}</source>
        <translation>Rank {0}</translation>
    </message>
    <message>
        <source>Rank {0} (no folder on this machine)</source>
        <translation>Rank {0}（本机上没有其文件夹）</translation>
    </message>
    <message>
        <source>The other ranks are shifted so that the event starts when it does on this rank</source>
        <translation>其他 Rank 被平移，使该事件与本 Rank 上同时开始</translation>
    </message>
    <message>
        <source>Start of &amp;step</source>
        <translation>迭代开始(&amp;S)</translation>
    </message>
    <message>
        <source>Step {0}</source>
        <translation>迭代 {0}</translation>
    </message>
    <message>
        <source>Start of a &amp;communication operator</source>
        <translation>通信算子开始(&amp;C)</translation>
    </message>
    <message>
        <source>e.g. hcom_allReduce__586_0_1</source>
        <translation>例如 hcom_allReduce__586_0_1</translation>
    </message>
    <message>
        <source>Which start of the operator on each rank's timeline (1: the first)</source>
        <translation>该算子在各 Rank 时间线上的第几次开始（1：第一次）</translation>
    </message>
    <message>
        <source>&amp;Ranks (each one lane group):</source>
        <translation>Rank(&amp;R)（每个一组泳道）：</translation>
    </message>
    <message>
        <source>R&amp;eference rank:</source>
        <translation>参考 Rank(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Occurrence</source>
        <translation>第几次(&amp;O)</translation>
    </message>
    <message>
        <source>Tick at least two ranks to align.</source>
        <translation>请至少勾选两个 Rank 进行对齐。</translation>
    </message>
    <message>
        <source>This cluster records no step numbers: align on a communication operator.</source>
        <translation>该集群未记录迭代编号：请按通信算子对齐。</translation>
    </message>
    <message>
        <source>Name the communication operator to align on (as the timeline shows it).</source>
        <translation>请填写用于对齐的通信算子名称（与时间线上显示的一致）。</translation>
    </message>
    <message>
        <source>Ranks {0} aligned on step {1}</source>
        <translation>Rank {0} 按迭代 {1} 对齐</translation>
    </message>
    <message>
        <source>Ranks {0} aligned on {1}</source>
        <translation>Rank {0} 按 {1} 对齐</translation>
    </message>
    <message>
        <source>Opening {0} was cancelled</source>
        <translation>已取消打开 {0}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>No application could open the log folder {0}</source>
        <translation>没有可打开日志文件夹 {0} 的应用程序</translation>
    </message>
    <message>
        <source>Cannot create the log folder {0}: {1}</source>
        <translation>无法创建日志文件夹 {0}：{1}</translation>
    </message>
    <message>
        <source>Start-up problems</source>
        <translation>启动时的问题</translation>
    </message>
    <message>
        <source>Demo project not created: {0}</source>
        <translation>未能创建演示工程：{0}</translation>
    </message>
</context>
<context>
    <name>Artefact</name>
    <message>
        <source>ONNX model</source>
        <translation>ONNX 模型</translation>
    </message>
    <message>
        <source>TensorFlow model</source>
        <translation>TensorFlow 模型</translation>
    </message>
    <message>
        <source>Caffe model</source>
        <translation>Caffe 模型</translation>
    </message>
    <message>
        <source>Caffe weights</source>
        <translation>Caffe 权重</translation>
    </message>
    <message>
        <source>AIR model</source>
        <translation>AIR 模型</translation>
    </message>
    <message>
        <source>Offline model (.om)</source>
        <translation>离线模型 (.om)</translation>
    </message>
    <message>
        <source>Model structure (om JSON)</source>
        <translation>模型结构 (om JSON)</translation>
    </message>
    <message>
        <source>AscendCL config (acl.json)</source>
        <translation>AscendCL 配置 (acl.json)</translation>
    </message>
    <message>
        <source>AIPP config</source>
        <translation>AIPP 配置</translation>
    </message>
    <message>
        <source>Profiling data (PROF)</source>
        <translation>性能数据 (PROF)</translation>
    </message>
    <message>
        <source>msprof timeline</source>
        <translation>msprof 时间线</translation>
    </message>
    <message>
        <source>torch_npu timeline</source>
        <translation>torch_npu 时间线</translation>
    </message>
    <message>
        <source>Framework profiling output</source>
        <translation>框架性能数据输出</translation>
    </message>
    <message>
        <source>Operator summary CSV</source>
        <translation>算子汇总 CSV</translation>
    </message>
    <message>
        <source>Workbench report</source>
        <translation>工作台报告</translation>
    </message>
    <message>
        <source>Dump data folder</source>
        <translation>Dump 数据目录</translation>
    </message>
    <message>
        <source>Dump file</source>
        <translation>Dump 文件</translation>
    </message>
    <message>
        <source>NumPy array</source>
        <translation>NumPy 数组</translation>
    </message>
    <message>
        <source>Cluster analysis output</source>
        <translation>集群分析输出</translation>
    </message>
    <message>
        <source>Workbench cluster report</source>
        <translation>工作台集群报告</translation>
    </message>
    <message>
        <source>Migration report</source>
        <translation>迁移报告</translation>
    </message>
</context>
<context>
    <name>ArtefactAction</name>
    <message>
        <source>Convert Model…</source>
        <translation>模型转换…</translation>
    </message>
    <message>
        <source>Show Model Structure</source>
        <translation>显示模型结构</translation>
    </message>
    <message>
        <source>Dump Configuration…</source>
        <translation>Dump 配置…</translation>
    </message>
    <message>
        <source>Open Dump Data</source>
        <translation>打开 Dump 数据</translation>
    </message>
    <message>
        <source>Analyse as Cluster</source>
        <translation>作为集群分析</translation>
    </message>
    <message>
        <source>Show Graph</source>
        <translation>显示计算图</translation>
    </message>
</context>
<context>
    <name>ArtefactFileModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
</context>
<context>
    <name>BaselineFolderDialog</name>
    <message>
        <source>Compare with Baseline</source>
        <translation>与基线比较</translation>
    </message>
</context>
<context>
    <name>BaselinePane</name>
    <message>
        <source>a PROF_ folder, *_ascend_pt folder, timeline JSON, CSV or .wbreport</source>
        <translation>PROF_ 文件夹、*_ascend_pt 文件夹、时间线 JSON、CSV 或 .wbreport</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Choose a baseline report to compare this report against.</source>
        <translation>选择一份基线报告，与当前报告进行比较。</translation>
    </message>
    <message>
        <source>Baseline file:</source>
        <translation>基线文件：</translation>
    </message>
    <message>
        <source>Baseline Report</source>
        <translation>基线报告</translation>
    </message>
    <message>
        <source>Choose a baseline report first.</source>
        <translation>请先选择基线报告。</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
</context>
<context>
    <name>CannMachinesDialog</name>
    <message>
        <source>CANN Machines</source>
        <translation>CANN 机器</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Import ~/.ssh/config…</source>
        <translation>导入 ~/.ssh/config…</translation>
    </message>
    <message>
        <source>Automatic (agent, keys, then password)</source>
        <translation>自动（先 agent，再密钥，最后密码）</translation>
    </message>
    <message>
        <source>SSH agent</source>
        <translation>SSH agent</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>密钥文件</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>another host's name, or user@host:port</source>
        <translation>另一台主机的名称，或 user@host:port</translation>
    </message>
    <message>
        <source>detected (/usr/local/Ascend/ascend-toolkit/latest, …)</source>
        <translation>自动检测（/usr/local/Ascend/ascend-toolkit/latest 等）</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Host name:</source>
        <translation>主机名：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <source>Authentication:</source>
        <translation>认证方式：</translation>
    </message>
    <message>
        <source>Key file:</source>
        <translation>密钥文件：</translation>
    </message>
    <message>
        <source>ProxyJump:</source>
        <translation>跳板机 (ProxyJump)：</translation>
    </message>
    <message>
        <source>Toolkit path:</source>
        <translation>工具包路径：</translation>
    </message>
    <message>
        <source>Save Host</source>
        <translation>保存主机</translation>
    </message>
    <message>
        <source>Test Connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>NPU</source>
        <translation>NPU</translation>
    </message>
    <message>
        <source>Chip</source>
        <translation>芯片</translation>
    </message>
    <message>
        <source>--soc_version</source>
        <translation>--soc_version</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>健康状态</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Demo host (simulated CANN)</source>
        <translation>演示主机（模拟 CANN）</translation>
    </message>
    <message>
        <source>This machine, with the simulated CANN toolkit: no Ascend hardware needed.</source>
        <translation>本机，使用模拟的 CANN 工具包：无需昇腾硬件。</translation>
    </message>
    <message>
        <source>Saved {0}.</source>
        <translation>已保存 {0}。</translation>
    </message>
    <message>
        <source>Remove Host</source>
        <translation>移除主机</translation>
    </message>
    <message>
        <source>Remove {0} from the CANN machines? Nothing on the host is touched.</source>
        <translation>从 CANN 机器中移除 {0} 吗？主机上的内容不受影响。</translation>
    </message>
    <message>
        <source>Import ~/.ssh/config</source>
        <translation>导入 ~/.ssh/config</translation>
    </message>
    <message>
        <source>Imported {0} of {1} hosts (existing names were kept).</source>
        <translation>已导入 {0}/{1} 台主机（同名的已有主机保持不变）。</translation>
    </message>
    <message>
        <source>Private Key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Connecting to {0}…</source>
        <translation>正在连接 {0}…</translation>
    </message>
    <message>
        <source>Check host {0}</source>
        <translation>检查主机 {0}</translation>
    </message>
    <message>
        <source>Connection failed: {0}</source>
        <translation>连接失败：{0}</translation>
    </message>
    <message>
        <source>Reachable, but no CANN toolkit found: {0}</source>
        <translation>主机可达，但未找到 CANN 工具包：{0}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source> (simulated)</source>
        <translation>（模拟）</translation>
    </message>
    <message>
        <source>CANN {0}{1} at {2}
Tools: {3}</source>
        <translation>CANN {0}{1}，位于 {2}
工具：{3}</translation>
    </message>
    <message>
        <source>ambiguous: one of {0}</source>
        <translation>无法确定：可能为 {0} 之一</translation>
    </message>
    <message>
        <source>npu-smi info does not tell this chip's exact --soc_version and the board query (npu-smi info -t board) did not answer: choose it in the Model Converter.</source>
        <translation>npu-smi info 无法给出该芯片确切的 --soc_version，且单板查询（npu-smi info -t board）没有答复：请在模型转换中选择。</translation>
    </message>
</context>
<context>
    <name>CheckPage</name>
    <message>
        <source>Command and Checks</source>
        <translation>命令与检查</translation>
    </message>
    <message>
        <source>The exact msprof command that will run on the host, and what was checked there before starting.</source>
        <translation>将在主机上运行的完整 msprof 命令，以及启动前在主机上完成的检查。</translation>
    </message>
    <message>
        <source>Check Again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>msprof command:</source>
        <translation>msprof 命令：</translation>
    </message>
    <message>
        <source>Checks before starting:</source>
        <translation>启动前检查：</translation>
    </message>
    <message>
        <source>Checking on the host…</source>
        <translation>正在主机上检查…</translation>
    </message>
    <message>
        <source>CANN {0} · working folder on the host: {1}
Output: {2}/RUN_ID (RUN_ID: the run's date and time, chosen when it starts)</source>
        <translation>CANN {0} · 主机上的工作目录：{1}
输出：{2}/RUN_ID（RUN_ID：本次运行的日期和时间，在启动时确定）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>the login folder</source>
        <translation>登录目录</translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation>未发现问题。</translation>
    </message>
    <message>
        <source>{0} problem(s) must be fixed before starting: go Back and change the options, or fix the host, then Check Again.</source>
        <translation>启动前必须修复 {0} 个问题：请返回上一步修改选项，或修复主机，然后点击“重新检查”。</translation>
    </message>
    <message>
        <source>Ready to start (read the notes above).</source>
        <translation>可以启动（请阅读上方的提示）。</translation>
    </message>
    <message>
        <source>All checks passed: ready to start.</source>
        <translation>所有检查均已通过：可以启动。</translation>
    </message>
    <message>
        <source>The checks could not run: {0}</source>
        <translation>无法执行检查：{0}</translation>
    </message>
</context>
<context>
    <name>ClusterCommPane</name>
    <message>
        <source>Communication groups</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Ranks of the operator</source>
        <translation>算子的各 Rank</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Parallel Group</source>
        <translation>并行组</translation>
    </message>
    <message>
        <source>Group Hash</source>
        <translation>通信域哈希</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Max Elapse (ms)</source>
        <translation>最大总耗时 (ms)</translation>
    </message>
    <message>
        <source>Waited-for Rank</source>
        <translation>被等待的 Rank</translation>
    </message>
    <message>
        <source>Wait Spread (ms)</source>
        <translation>等待差 (ms)</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Elapse (ms)</source>
        <translation>总耗时 (ms)</translation>
    </message>
    <message>
        <source>Wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <source>Transit (ms)</source>
        <translation>传输 (ms)</translation>
    </message>
    <message>
        <source>Synchronization (ms)</source>
        <translation>同步 (ms)</translation>
    </message>
    <message>
        <source>Idle (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>Wait Ratio</source>
        <translation>等待占比</translation>
    </message>
    <message>
        <source>This cluster has no communication operators (no cluster_communication data).</source>
        <translation>此集群没有通信算子（没有 cluster_communication 数据）。</translation>
    </message>
    <message>
        <source>{0} operators in {1} groups. The waited-for rank is the one with the least wait: the others waited for it, up to the wait spread. Double-click a rank to open its report.</source>
        <translation>{1} 个通信域中共 {0} 个算子。被等待的 Rank 是等待最少的 Rank：其他 Rank 在等它，最多等待“等待差”那么久。双击 Rank 可打开其报告。</translation>
    </message>
    <message>
        <source>{0} · step {1} · {2}</source>
        <translation>{0} · 迭代 {1} · {2}</translation>
    </message>
</context>
<context>
    <name>ClusterComparisonPane</name>
    <message>
        <source>Rank {0} (µs)</source>
        <translation>Rank {0} (µs)</translation>
    </message>
    <message>
        <source>Baseline (µs)</source>
        <translation>基线 (µs)</translation>
    </message>
    <message>
        <source>Current (µs)</source>
        <translation>当前 (µs)</translation>
    </message>
    <message>
        <source>Regressed ranks</source>
        <translation>劣化的 Rank</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>All columns</source>
        <translation>所有列</translation>
    </message>
    <message>
        <source>&amp;Rows of</source>
        <translation>显示列(&amp;R)</translation>
    </message>
    <message>
        <source>Rank {0} against rank {1} of {2}: {3} steps compared, times in µs.</source>
        <translation>{2} 的 Rank {0} 与 Rank {1} 比较：比较了 {3} 个迭代，时间单位 µs。</translation>
    </message>
    <message>
        <source>{0} against the baseline {1}: {2} ranks × {3} steps compared ({4} rows), times in µs.</source>
        <translation>{0} 与基线 {1} 比较：比较了 {2} 个 Rank × {3} 个迭代（{4} 行），时间单位 µs。</translation>
    </message>
    <message>
        <source>Ranks only in the baseline: {0}</source>
        <translation>仅基线中有的 Rank：{0}</translation>
    </message>
    <message>
        <source>Ranks only in the current cluster: {0}</source>
        <translation>仅当前集群中有的 Rank：{0}</translation>
    </message>
    <message>
        <source>Steps only in the baseline: {0}</source>
        <translation>仅基线中有的迭代：{0}</translation>
    </message>
    <message>
        <source>Steps only in the current cluster: {0}</source>
        <translation>仅当前集群中有的迭代：{0}</translation>
    </message>
    <message>
        <source>Columns only in the baseline: {0}</source>
        <translation>仅基线中有的列：{0}</translation>
    </message>
    <message>
        <source>Columns only in the current cluster: {0}</source>
        <translation>仅当前集群中有的列：{0}</translation>
    </message>
    <message>
        <source>Steps only rank {0} has: {1}</source>
        <translation>仅 Rank {0} 有的迭代：{1}</translation>
    </message>
    <message>
        <source>{0} (rank, step) rows are on one side only and not compared.</source>
        <translation>{0} 个（Rank, 迭代）行只在一侧存在，未参与比较。</translation>
    </message>
    <message>
        <source>Slow rank · {0}</source>
        <translation>慢 Rank · {0}</translation>
    </message>
    <message>
        <source>Slow link of rank {0} · {1}</source>
        <translation>Rank {0} 的慢链路 · {1}</translation>
    </message>
    <message>
        <source>No finding names rank {0} or rank {1}.</source>
        <translation>没有涉及 Rank {0} 或 Rank {1} 的发现。</translation>
    </message>
    <message>
        <source>New · Slow rank · {0}</source>
        <translation>新增 · 慢 Rank · {0}</translation>
    </message>
    <message>
        <source>New · Slow link · {0}</source>
        <translation>新增 · 慢链路 · {0}</translation>
    </message>
    <message>
        <source>Resolved · Slow rank · {0}</source>
        <translation>已解决 · 慢 Rank · {0}</translation>
    </message>
    <message>
        <source>Resolved · Slow link · {0}</source>
        <translation>已解决 · 慢链路 · {0}</translation>
    </message>
    <message>
        <source>Still · Slow rank · {0}</source>
        <translation>仍存在 · 慢 Rank · {0}</translation>
    </message>
    <message>
        <source>Still · Slow link · {0}</source>
        <translation>仍存在 · 慢链路 · {0}</translation>
    </message>
    <message>
        <source>No slow rank and no slow link in either cluster.</source>
        <translation>两个集群中都没有慢 Rank 和慢链路。</translation>
    </message>
    <message>
        <source>Rank {0}'s Computing and Free exceed rank {1}'s by no more than {2} % of its step.</source>
        <translation>Rank {0} 的计算与空闲时间比 Rank {1} 多出的部分均不超过其迭代时间的 {2} %。</translation>
    </message>
    <message>
        <source>The columns where rank {0}'s mean exceeds rank {1}'s by more than {2} % of rank {1}'s step (Computing + Communication (Not Overlapped) + Free). Ranked: Computing and Free.</source>
        <translation>Rank {0} 的均值比 Rank {1} 多出超过 Rank {1} 迭代时间（计算 + 通信（未被掩盖）+ 空闲）{2} % 的列。参与排序：计算与空闲。</translation>
    </message>
    <message>
        <source>A rank regressed in a column when its mean change there exceeds the cluster's median change by more than {0} % of its step (Computing + Communication (Not Overlapped) + Free). Ranked: Computing and Free; communication is mostly waiting for the others.</source>
        <translation>某 Rank 在某列的均值变化超出集群在该列变化的中位数，且超出部分大于其迭代时间（计算 + 通信（未被掩盖）+ 空闲）的 {0} % 时，即视为该列劣化。参与排序：计算与空闲；通信时间多为等待其他 Rank。</translation>
    </message>
    <message>
        <source>No rank regressed: no rank's Computing or Free grew more than the cluster's did.</source>
        <translation>没有 Rank 劣化：没有 Rank 的计算或空闲时间增长超过集群整体。</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Change (µs)</source>
        <translation>变化 (µs)</translation>
    </message>
    <message>
        <source>Cluster's Change (µs)</source>
        <translation>集群变化 (µs)</translation>
    </message>
    <message>
        <source>Excess (µs)</source>
        <translation>超出 (µs)</translation>
    </message>
    <message>
        <source>Change (%)</source>
        <translation>变化 (%)</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代数</translation>
    </message>
    <message>
        <source>Δ {0} (µs)</source>
        <translation>Δ {0} (µs)</translation>
    </message>
    <message>
        <source>Per rank the change of its mean over the steps, the most regressed rank first.</source>
        <translation>每个 Rank 各迭代均值的变化，劣化最严重的 Rank 排在最前。</translation>
    </message>
    <message>
        <source>Each column summed over the compared rows.</source>
        <translation>各列在参与比较的行上的合计。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
</context>
<context>
    <name>ClusterComparisons</name>
    <message>
        <source>Compare with Baseline…</source>
        <translation>与基线比较…</translation>
    </message>
    <message>
        <source>Compare this cluster with a baseline cluster's folder (nothing is written into it)</source>
        <translation>将此集群与一个基线集群的文件夹比较（不会向其中写入任何内容）</translation>
    </message>
    <message>
        <source>Compare Ranks…</source>
        <translation>比较 Rank…</translation>
    </message>
    <message>
        <source>Compare two ranks of this cluster side by side, step by step</source>
        <translation>逐个迭代并排比较此集群的两个 Rank</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>基线比较</translation>
    </message>
    <message>
        <source>Opening the baseline {0}</source>
        <translation>正在打开基线 {0}</translation>
    </message>
    <message>
        <source>Compare {0} with the baseline {1}</source>
        <translation>将 {0} 与基线 {1} 比较</translation>
    </message>
    <message>
        <source>The comparison with the baseline {0} was cancelled.</source>
        <translation>与基线 {0} 的比较已取消。</translation>
    </message>
    <message>
        <source>Rank Comparison</source>
        <translation>Rank 比较</translation>
    </message>
</context>
<context>
    <name>ClusterDocument</name>
    <message>
        <source>Re-analyse</source>
        <translation>重新分析</translation>
    </message>
    <message>
        <source>Analyse the ranks again and write the cluster files anew</source>
        <translation>重新分析各 Rank，并重新写出集群文件</translation>
    </message>
    <message>
        <source>Open Rank Report</source>
        <translation>打开 Rank 报告</translation>
    </message>
    <message>
        <source>Open the selected rank's profiling folder as a report</source>
        <translation>将所选 Rank 的性能数据目录作为报告打开</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Open cluster {0}</source>
        <translation>打开集群 {0}</translation>
    </message>
    <message>
        <source>Opening cluster {0}</source>
        <translation>正在打开集群 {0}</translation>
    </message>
    <message>
        <source>Analyse cluster {0}</source>
        <translation>分析集群 {0}</translation>
    </message>
    <message>
        <source>Analysing cluster {0}</source>
        <translation>正在分析集群 {0}</translation>
    </message>
    <message>
        <source>{0} holds the files of an earlier analysis ({1}). Replace them?</source>
        <translation>{0} 中已有之前分析的文件（{1}）。要替换它们吗？</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Advise on cluster {0}</source>
        <translation>对集群 {0} 给出专家建议</translation>
    </message>
    <message>
        <source>{0} selected in the Matrix.</source>
        <translation>已在矩阵中选中 {0}。</translation>
    </message>
    <message>
        <source>Rank {0} selected: Open Rank Report opens its timeline.</source>
        <translation>已选中 Rank {0}：“打开 Rank 报告”可打开其时间线。</translation>
    </message>
    <message>
        <source>{0} is not shown in a view of this cluster.</source>
        <translation>{0} 不在此集群的任何视图中显示。</translation>
    </message>
    <message>
        <source>Nothing was analysed: the files of the earlier analysis were kept.</source>
        <translation>未进行分析：之前分析的文件已保留。</translation>
    </message>
    <message>
        <source>The analysis of {0} was cancelled; the earlier analysis is shown.</source>
        <translation>{0} 的分析已取消；显示的是之前的分析结果。</translation>
    </message>
    <message>
        <source>The analysis of {0} was cancelled after it had written its files to {1}.</source>
        <translation>{0} 的分析在其文件写入 {1} 之后被取消。</translation>
    </message>
    <message>
        <source>The analysis of {0} was cancelled. No file was written.</source>
        <translation>{0} 的分析已取消，未写入任何文件。</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Matrix</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>read from msprof-analyze's cluster_analysis_output</source>
        <translation>读自 msprof-analyze 的 cluster_analysis_output</translation>
    </message>
    <message>
        <source>analysed now, files written to {0}</source>
        <translation>刚刚分析，文件已写入 {0}</translation>
    </message>
    <message>
        <source>re-opened from {0} (analysed {1})</source>
        <translation>从 {0} 重新打开（分析于 {1}）</translation>
    </message>
    <message>
        <source>ranks: {0} · steps: {1} · stages: {2} · engine: {3} · {4}</source>
        <translation>Rank 数：{0} · 迭代数：{1} · 阶段数：{2} · 引擎：{3} · {4}</translation>
    </message>
    <message>
        <source>Warnings ({0})…</source>
        <translation>警告（{0}）…</translation>
    </message>
    <message>
        <source>Warnings of {0}</source>
        <translation>{0} 的警告</translation>
    </message>
    <message>
        <source>Cluster {0} ({1} ranks)</source>
        <translation>集群 {0}（{1} 个 Rank）</translation>
    </message>
    <message>
        <source>Open Rank {0} Report</source>
        <translation>打开 Rank {0} 的报告</translation>
    </message>
    <message>
        <source>Rank {0}: this cluster names no folder for it ({1} was read without the ranks' folders).</source>
        <translation>Rank {0}：此集群未记录它的目录（读取 {1} 时没有各 Rank 的目录）。</translation>
    </message>
    <message>
        <source>Rank {0} is on the remote host {1} ({2}): opening a remote rank's report is not supported; copy its folder to this machine and open it there.</source>
        <translation>Rank {0} 位于远程主机 {1}（{2}）：不支持打开远程 Rank 的报告；请将其目录复制到本机后再打开。</translation>
    </message>
    <message>
        <source>Rank {0}: its folder {1} does not exist any more.</source>
        <translation>Rank {0}：其目录 {1} 已不存在。</translation>
    </message>
    <message>
        <source>Open Timelines Aligned…</source>
        <translation>对齐打开时间线…</translation>
    </message>
    <message>
        <source>Show in Matrix</source>
        <translation>在矩阵中显示</translation>
    </message>
    <message>
        <source>Cluster {0}</source>
        <translation>集群 {0}</translation>
    </message>
</context>
<context>
    <name>ClusterMatrixPane</name>
    <message>
        <source>All transports</source>
        <translation>所有传输类型</translation>
    </message>
    <message>
        <source>&amp;Transport</source>
        <translation>传输类型(&amp;T)</translation>
    </message>
    <message>
        <source>This cluster has no communication matrix (no cluster_communication_matrix data).</source>
        <translation>此集群没有通信矩阵（没有 cluster_communication_matrix 数据）。</translation>
    </message>
    <message>
        <source>{0} links; slow links outlined: {1}</source>
        <translation>{0} 条链路；已框出慢链路：{1}</translation>
    </message>
    <message>
        <source>{0} links; none is slow</source>
        <translation>{0} 条链路；没有慢链路</translation>
    </message>
    <message>
        <source>{0} → {1}: no link</source>
        <translation>{0} → {1}：无链路</translation>
    </message>
    <message>
        <source>{0} → {1} · {2}
Bandwidth: {3} GB/s
Size: {4} MB · Time: {5} ms</source>
        <translation>{0} → {1} · {2}
带宽：{3} GB/s
大小：{4} MB · 时间：{5} ms</translation>
    </message>
</context>
<context>
    <name>ClusterOverviewPane</name>
    <message>
        <source>Mean of the steps</source>
        <translation>各迭代的平均</translation>
    </message>
    <message>
        <source>Step {0}</source>
        <translation>迭代 {0}</translation>
    </message>
    <message>
        <source>&amp;Heatmap of</source>
        <translation>热力图(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Bars for</source>
        <translation>柱状图(&amp;B)</translation>
    </message>
    <message>
        <source>Slow rank · {0}</source>
        <translation>慢 Rank · {0}</translation>
    </message>
    <message>
        <source>Slow link · {0}</source>
        <translation>慢链路 · {0}</translation>
    </message>
    <message>
        <source>Operators: {0}</source>
        <translation>算子：{0}</translation>
    </message>
    <message>
        <source>No slow rank (Computing more than {0} % above its peers' median) and no slow link (bandwidth under {1} % of its transport's median)</source>
        <translation>没有慢 Rank（计算耗时比同组中位数高 {0} % 以上）也没有慢链路（带宽低于其传输类型中位数的 {1} %）</translation>
    </message>
    <message>
        <source>mean of the steps</source>
        <translation>各迭代的平均</translation>
    </message>
    <message>
        <source>step {0}</source>
        <translation>迭代 {0}</translation>
    </message>
</context>
<context>
    <name>ClusterView</name>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>被掩盖</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped, Exclude Receive)</source>
        <translation>通信（未被掩盖，不含接收）</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Finding the ranks under {0}</source>
        <translation>正在查找 {0} 下的 Rank</translation>
    </message>
    <message>
        <source>Merging {0} ranks</source>
        <translation>正在合并 {0} 个 Rank</translation>
    </message>
    <message>
        <source>Rank {0} done ({1}/{2})</source>
        <translation>Rank {0} 完成（{1}/{2}）</translation>
    </message>
    <message>
        <source>Starting a local Dask cluster ({0} workers)</source>
        <translation>正在启动本地 Dask 集群（{0} 个 worker）</translation>
    </message>
    <message>
        <source>Starting a Dask cluster over SSH on {0}</source>
        <translation>正在通过 SSH 在 {0} 上启动 Dask 集群</translation>
    </message>
    <message>
        <source>Connecting to the Dask scheduler {0}</source>
        <translation>正在连接 Dask 调度器 {0}</translation>
    </message>
    <message>
        <source>all ranks</source>
        <translation>所有 Rank</translation>
    </message>
    <message>
        <source>its stage (ranks {0})</source>
        <translation>其所在阶段（Rank {0}）</translation>
    </message>
    <message>
        <source>Rank {0}: Computing {1} in step {2}, {3} % ({4}) above the median {5} of {6}; slow in {7} of {8} steps</source>
        <translation>Rank {0}：迭代 {2} 的计算耗时 {1}，比{6}的中位数 {5} 高 {3} %（{4}）；{8} 个迭代中有 {7} 个偏慢</translation>
    </message>
    <message>
        <source>; the ranks sharing its groups waited {0} on average, rank {1} itself {2}</source>
        <translation>；与其同通信域的 Rank 平均等待 {0}，Rank {1} 自身等待 {2}</translation>
    </message>
    <message>
        <source>Link {0} → {1} ({2}): {3} GB/s, {4} % of the {2} links' median {5} GB/s; {6} MB in {7}</source>
        <translation>链路 {0} → {1}（{2}）：{3} GB/s，为 {2} 链路中位数 {5} GB/s 的 {4} %；{7} 内传输 {6} MB</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>ClusterWarning</name>
    <message>
        <source>{0}: not a folder</source>
        <translation>{0}：不是文件夹</translation>
    </message>
    <message>
        <source>{0}: cannot be read ({1})</source>
        <translation>{0}：无法读取（{1}）</translation>
    </message>
    <message>
        <source>{0}: {1} does not name a rank number (profiler_info_&lt;rank&gt;.json)</source>
        <translation>{0}：{1} 未给出 Rank 编号（应为 profiler_info_&lt;rank&gt;.json）</translation>
    </message>
    <message>
        <source>{0}: no profiler_info_&lt;rank&gt;.json, so its rank is unknown; skipped</source>
        <translation>{0}：没有 profiler_info_&lt;rank&gt;.json，无法确定其 Rank；已跳过</translation>
    </message>
    <message>
        <source>{0}: no ASCEND_PROFILER_OUTPUT folder (the profiling was not parsed); skipped</source>
        <translation>{0}：没有 ASCEND_PROFILER_OUTPUT 文件夹（性能数据未解析）；已跳过</translation>
    </message>
    <message>
        <source>rank {0}: {1} folders; the newest, {2}, is taken (not {3})</source>
        <translation>Rank {0}：有 {1} 个文件夹；采用最新的 {2}（未采用 {3}）</translation>
    </message>
    <message>
        <source>{0}: no device_&lt;id&gt;/info.json.&lt;id&gt;, so its rank is unknown; skipped</source>
        <translation>{0}：没有 device_&lt;id&gt;/info.json.&lt;id&gt;，无法确定其 Rank；已跳过</translation>
    </message>
    <message>
        <source>{0}: not parsed (no mindstudio_profiler_output and analyze folders: run {1}); skipped</source>
        <translation>{0}：未解析（没有 mindstudio_profiler_output 和 analyze 文件夹：请运行 {1}）；已跳过</translation>
    </message>
    <message>
        <source>{0}: expected an object with rank_id, found {1}; skipped</source>
        <translation>{0}：应为含 rank_id 的对象，实际为 {1}；已跳过</translation>
    </message>
    <message>
        <source>{0}: rank_id {1} is not a rank number; skipped</source>
        <translation>{0}：rank_id {1} 不是 Rank 编号；已跳过</translation>
    </message>
    <message>
        <source>{0}: {1} devices in one PROF folder; read as one rank, as msprof-analyze reads it (the rank of {2})</source>
        <translation>{0}：一个 PROF 文件夹中有 {1} 个设备；与 msprof-analyze 一样按一个 Rank 读取（取 {2} 的 Rank）</translation>
    </message>
    <message>
        <source>{0} PROF folders have no rank_id ({1}, ...) while others have one; they are left out</source>
        <translation>{0} 个 PROF 文件夹没有 rank_id（{1} 等），而其他文件夹有；这些文件夹未纳入分析</translation>
    </message>
    <message>
        <source>rank {0}: {1} folders of device {2} without a rank_id; the oldest, {3}, is taken (not {4})</source>
        <translation>Rank {0}：设备 {2} 有 {1} 个没有 rank_id 的文件夹；采用最早的 {3}（未采用 {4}）</translation>
    </message>
    <message>
        <source>{0} PROF folders ({1}, ...) are left out: the torch_npu / MindSpore ranks are analysed</source>
        <translation>{0} 个 PROF 文件夹（{1} 等）未纳入分析：分析的是 torch_npu / MindSpore 的 Rank</translation>
    </message>
    <message>
        <source>{0}: not valid JSON ({1})</source>
        <translation>{0}：不是有效的 JSON（{1}）</translation>
    </message>
    <message>
        <source>rank {0}: no step_trace_time.csv in {1}</source>
        <translation>Rank {0}：{1} 中没有 step_trace_time.csv</translation>
    </message>
    <message>
        <source>{0}: not a readable CSV ({1}); its steps are left out</source>
        <translation>{0}：无法读取的 CSV（{1}）；其迭代数据已略去</translation>
    </message>
    <message>
        <source>{0}: empty (expected a header row starting with Step)</source>
        <translation>{0}：文件为空（应有以 Step 开头的表头行）</translation>
    </message>
    <message>
        <source>{0}: line 1 has no Step column (found {1}, ...)</source>
        <translation>{0}：第 1 行没有 Step 列（实际为 {1}, ...）</translation>
    </message>
    <message>
        <source>{0}: line {1}, {2}: {3} is not a number; taken as 0</source>
        <translation>{0}：第 {1} 行，{2}：{3} 不是数字；按 0 处理</translation>
    </message>
    <message>
        <source>{0}: expected an object of steps, found {1}</source>
        <translation>{0}：应为按迭代组织的对象，实际为 {1}</translation>
    </message>
    <message>
        <source>{0}: step {1} is not an object; skipped</source>
        <translation>{0}：迭代 {1} 不是对象；已跳过</translation>
    </message>
    <message>
        <source>{0}: {1}/{2} is not an object; skipped</source>
        <translation>{0}：{1}/{2} 不是对象；已跳过</translation>
    </message>
    <message>
        <source>rank {0}: no communication.json or communication_matrix.json in {1}</source>
        <translation>Rank {0}：{1} 中没有 communication.json 或 communication_matrix.json</translation>
    </message>
    <message>
        <source>rank {0}: no msprof_&lt;timestamp&gt;.json in {1}; its steps are left out</source>
        <translation>Rank {0}：{1} 中没有 msprof_&lt;timestamp&gt;.json；其迭代数据未纳入</translation>
    </message>
    <message>
        <source>{0}: event {1}, dur: {2} is not a number; taken as 0</source>
        <translation>{0}：事件 {1} 的 dur：{2} 不是数字；按 0 处理</translation>
    </message>
    <message>
        <source>{0}: expected a list of trace events, found {1}; no steps</source>
        <translation>{0}：应为 trace 事件列表，实际为 {1}；没有迭代数据</translation>
    </message>
    <message>
        <source>{0}: expected an object of operators, found {1}</source>
        <translation>{0}：应为按算子组织的对象，实际为 {1}</translation>
    </message>
    <message>
        <source>{0}: operator {1} is not an object; skipped</source>
        <translation>{0}：算子 {1} 不是对象；已跳过</translation>
    </message>
    <message>
        <source>rank {0}: no {1} in {2}; no steps or parallel_group_info</source>
        <translation>Rank {0}：{2} 中没有 {1}；没有迭代数据和 parallel_group_info</translation>
    </message>
    <message>
        <source>rank {0}: no {1} in {2}; no communication</source>
        <translation>Rank {0}：{2} 中没有 {1}；没有通信数据</translation>
    </message>
    <message>
        <source>{0}: no table {1}; the rank's steps are left out</source>
        <translation>{0}：没有表 {1}；该 Rank 的迭代数据未纳入</translation>
    </message>
    <message>
        <source>{0}, column {1}: {2} is not a number; taken as 0</source>
        <translation>{0}，列 {1}：{2} 不是数字；按 0 处理</translation>
    </message>
    <message>
        <source>profiler_metadata.json: distributed_args do not describe a Megatron partition (world_size = tp x pp x dp, integer sizes); no DP/PP/TP Index columns</source>
        <translation>profiler_metadata.json：distributed_args 不构成 Megatron 划分（需 world_size = tp x pp x dp，且均为整数）；不输出 DP/PP/TP Index 列</translation>
    </message>
    <message>
        <source>profiler_metadata.json: distributed_args describe {0} ranks but {1} ranks have data; no DP/PP/TP Index columns</source>
        <translation>profiler_metadata.json：distributed_args 描述了 {0} 个 Rank，但有数据的 Rank 为 {1} 个；不输出 DP/PP/TP Index 列</translation>
    </message>
    <message>
        <source>ranks {0} of the {1}-rank job have no step data</source>
        <translation>{1} 卡作业中的 Rank {0} 没有迭代数据</translation>
    </message>
    <message>
        <source>{0}: link {1} is not src-dst; skipped</source>
        <translation>{0}：链路 {1} 不是 src-dst 形式；已跳过</translation>
    </message>
    <message>
        <source>{0}: local rank {1} maps to no global rank</source>
        <translation>{0}：本地 Rank {1} 无法映射到全局 Rank</translation>
    </message>
    <message>
        <source>{0}: link {1} mapped through parallel_group_info (no r-r link of its ranks); msprof-analyze drops it</source>
        <translation>{0}：链路 {1} 经 parallel_group_info 映射（其 Rank 没有 r-r 链路）；msprof-analyze 会丢弃该链路</translation>
    </message>
    <message>
        <source>{0} ranks ({1}) are on both {2} and {3} (one shared disk?); {4}'s are taken</source>
        <translation>{0} 个 Rank（{1}）同时位于 {2} 和 {3}（共享磁盘？）；采用 {4} 上的</translation>
    </message>
    <message>
        <source>rank {0}: its worker was lost; reduced again on {1}</source>
        <translation>Rank {0}：其 worker 已丢失；已在 {1} 上重新归约</translation>
    </message>
    <message>
        <source>rank {0}: no {1} in {2}; the rank is left out of HostInfo and RankDeviceMap</source>
        <translation>rank {0}：{2} 中没有 {1}；该 rank 不计入 HostInfo 和 RankDeviceMap</translation>
    </message>
    <message>
        <source>{0}: not a readable SQLite database ({1}); the rank is left out of HostInfo and RankDeviceMap</source>
        <translation>{0}：不是可读的 SQLite 数据库（{1}）；该 rank 不计入 HostInfo 和 RankDeviceMap</translation>
    </message>
    <message>
        <source>{0}: no {1} rows; the rank is left out of HostInfo and RankDeviceMap</source>
        <translation>{0}：没有 {1} 行；该 rank 不计入 HostInfo 和 RankDeviceMap</translation>
    </message>
    <message>
        <source>{0}: no PROF_* folder; the rank is left out of HostInfo and RankDeviceMap</source>
        <translation>{0}：没有 PROF_* 文件夹；该 rank 不计入 HostInfo 和 RankDeviceMap</translation>
    </message>
    <message>
        <source>{0}: no device_&lt;id&gt; folder; the rank is left out of HostInfo and RankDeviceMap</source>
        <translation>{0}：没有 device_&lt;id&gt; 文件夹；该 rank 不计入 HostInfo 和 RankDeviceMap</translation>
    </message>
</context>
<context>
    <name>CollectHint</name>
    <message>
        <source>msprof --sys-profiling=on (needs perf and ltrace on the host)</source>
        <translation>msprof --sys-profiling=on（需要主机上装有 perf 和 ltrace）</translation>
    </message>
    <message>
        <source>msprof --task-time=on (or torch_npu profiler with ProfilerActivity.NPU)</source>
        <translation>msprof --task-time=on（或 torch_npu profiler 使用 ProfilerActivity.NPU）</translation>
    </message>
</context>
<context>
    <name>Column</name>
    <message>
        <source>{0}
Click: sort by this column · Ctrl+click: select it</source>
        <translation>{0}
单击：按此列排序 · Ctrl+单击：选中此列</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Model Name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <source>Model ID</source>
        <translation>模型 ID</translation>
    </message>
    <message>
        <source>Task ID</source>
        <translation>任务 ID</translation>
    </message>
    <message>
        <source>Stream ID</source>
        <translation>流 ID</translation>
    </message>
    <message>
        <source>Infer ID</source>
        <translation>推理 ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>OP Type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>OP State</source>
        <translation>算子状态</translation>
    </message>
    <message>
        <source>Task Type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <source>Start Time(ns)</source>
        <translation>开始时间(ns)</translation>
    </message>
    <message>
        <source>Duration(us)</source>
        <translation>耗时(us)</translation>
    </message>
    <message>
        <source>Wait Time(us)</source>
        <translation>等待时间(us)</translation>
    </message>
    <message>
        <source>Block Dim</source>
        <translation>Block 数</translation>
    </message>
    <message>
        <source>Mix Block Dim</source>
        <translation>Mix Block 数</translation>
    </message>
    <message>
        <source>HF32 Eligible</source>
        <translation>可用 HF32</translation>
    </message>
    <message>
        <source>Input Shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Input Data Types</source>
        <translation>输入数据类型</translation>
    </message>
    <message>
        <source>Input Formats</source>
        <translation>输入格式</translation>
    </message>
    <message>
        <source>Output Shapes</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <source>Output Data Types</source>
        <translation>输出数据类型</translation>
    </message>
    <message>
        <source>Output Formats</source>
        <translation>输出格式</translation>
    </message>
    <message>
        <source>Context ID</source>
        <translation>上下文 ID</translation>
    </message>
    <message>
        <source>Core Type</source>
        <translation>核类型</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Total Time(us)</source>
        <translation>总耗时(us)</translation>
    </message>
    <message>
        <source>Min Time(us)</source>
        <translation>最小耗时(us)</translation>
    </message>
    <message>
        <source>Avg Time(us)</source>
        <translation>平均耗时(us)</translation>
    </message>
    <message>
        <source>Max Time(us)</source>
        <translation>最大耗时(us)</translation>
    </message>
    <message>
        <source>Ratio(%)</source>
        <translation>占比(%)</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Time(%)</source>
        <translation>耗时占比(%)</translation>
    </message>
    <message>
        <source>Variance</source>
        <translation>方差</translation>
    </message>
    <message>
        <source>Process ID</source>
        <translation>进程 ID</translation>
    </message>
    <message>
        <source>Thread ID</source>
        <translation>线程 ID</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Start(us)</source>
        <translation>开始(us)</translation>
    </message>
    <message>
        <source>End(us)</source>
        <translation>结束(us)</translation>
    </message>
    <message>
        <source>Self(us)</source>
        <translation>自身耗时(us)</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Time(us)</source>
        <translation>耗时(us)</translation>
    </message>
    <message>
        <source>Total(us)</source>
        <translation>总计(us)</translation>
    </message>
    <message>
        <source>Avg(us)</source>
        <translation>平均(us)</translation>
    </message>
    <message>
        <source>Min(us)</source>
        <translation>最小(us)</translation>
    </message>
    <message>
        <source>Max(us)</source>
        <translation>最大(us)</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>AI Core Time(us)</source>
        <translation>AI Core 耗时(us)</translation>
    </message>
    <message>
        <source>Total Cycles</source>
        <translation>总周期数</translation>
    </message>
    <message>
        <source>Memory Bound</source>
        <translation>内存瓶颈</translation>
    </message>
    <message>
        <source>Cube Utilization(%)</source>
        <translation>Cube 利用率(%)</translation>
    </message>
    <message>
        <source>Vector Ratio</source>
        <translation>Vector 占比</translation>
    </message>
    <message>
        <source>Vector Time(us)</source>
        <translation>Vector 耗时(us)</translation>
    </message>
    <message>
        <source>Cube (MAC) Ratio</source>
        <translation>Cube (MAC) 占比</translation>
    </message>
    <message>
        <source>Cube (MAC) Time(us)</source>
        <translation>Cube (MAC) 耗时(us)</translation>
    </message>
    <message>
        <source>Scalar Ratio</source>
        <translation>Scalar 占比</translation>
    </message>
    <message>
        <source>Scalar Time(us)</source>
        <translation>Scalar 耗时(us)</translation>
    </message>
    <message>
        <source>MTE1 Ratio</source>
        <translation>MTE1 占比</translation>
    </message>
    <message>
        <source>MTE1 Time(us)</source>
        <translation>MTE1 耗时(us)</translation>
    </message>
    <message>
        <source>MTE2 Ratio</source>
        <translation>MTE2 占比</translation>
    </message>
    <message>
        <source>MTE2 Time(us)</source>
        <translation>MTE2 耗时(us)</translation>
    </message>
    <message>
        <source>MTE3 Ratio</source>
        <translation>MTE3 占比</translation>
    </message>
    <message>
        <source>MTE3 Time(us)</source>
        <translation>MTE3 耗时(us)</translation>
    </message>
    <message>
        <source>Fixpipe Ratio</source>
        <translation>Fixpipe 占比</translation>
    </message>
    <message>
        <source>Fixpipe Time(us)</source>
        <translation>Fixpipe 耗时(us)</translation>
    </message>
    <message>
        <source>ICache Miss Rate</source>
        <translation>指令缓存缺失率</translation>
    </message>
    <message>
        <source>Cube FP16 Ratio</source>
        <translation>Cube FP16 占比</translation>
    </message>
    <message>
        <source>Cube INT8 Ratio</source>
        <translation>Cube INT8 占比</translation>
    </message>
    <message>
        <source>Vector FP32 Ratio</source>
        <translation>Vector FP32 占比</translation>
    </message>
    <message>
        <source>Vector FP16 Ratio</source>
        <translation>Vector FP16 占比</translation>
    </message>
    <message>
        <source>Vector INT32 Ratio</source>
        <translation>Vector INT32 占比</translation>
    </message>
    <message>
        <source>Vector Misc Ratio</source>
        <translation>Vector 其他占比</translation>
    </message>
    <message>
        <source>Cube FLOPs</source>
        <translation>Cube 浮点运算次数</translation>
    </message>
    <message>
        <source>Vector FLOPs</source>
        <translation>Vector 浮点运算次数</translation>
    </message>
    <message>
        <source>UB Read(GB/s)</source>
        <translation>UB 读(GB/s)</translation>
    </message>
    <message>
        <source>UB Write(GB/s)</source>
        <translation>UB 写(GB/s)</translation>
    </message>
    <message>
        <source>L1 Read(GB/s)</source>
        <translation>L1 读(GB/s)</translation>
    </message>
    <message>
        <source>L1 Write(GB/s)</source>
        <translation>L1 写(GB/s)</translation>
    </message>
    <message>
        <source>L2 Read Bandwidth</source>
        <translation>L2 读带宽</translation>
    </message>
    <message>
        <source>L2 Write Bandwidth</source>
        <translation>L2 写带宽</translation>
    </message>
    <message>
        <source>Main Memory Read(GB/s)</source>
        <translation>主存读(GB/s)</translation>
    </message>
    <message>
        <source>Main Memory Write(GB/s)</source>
        <translation>主存写(GB/s)</translation>
    </message>
    <message>
        <source>L0A Read(GB/s)</source>
        <translation>L0A 读(GB/s)</translation>
    </message>
    <message>
        <source>L0A Write(GB/s)</source>
        <translation>L0A 写(GB/s)</translation>
    </message>
    <message>
        <source>L0B Read(GB/s)</source>
        <translation>L0B 读(GB/s)</translation>
    </message>
    <message>
        <source>L0B Write(GB/s)</source>
        <translation>L0B 写(GB/s)</translation>
    </message>
    <message>
        <source>L0C Read(GB/s)</source>
        <translation>L0C 读(GB/s)</translation>
    </message>
    <message>
        <source>L0C Write(GB/s)</source>
        <translation>L0C 写(GB/s)</translation>
    </message>
    <message>
        <source>L0C Cube Read(GB/s)</source>
        <translation>L0C Cube 读(GB/s)</translation>
    </message>
    <message>
        <source>L0C Cube Write(GB/s)</source>
        <translation>L0C Cube 写(GB/s)</translation>
    </message>
    <message>
        <source>UB Vector Read(GB/s)</source>
        <translation>UB Vector 读(GB/s)</translation>
    </message>
    <message>
        <source>UB Vector Write(GB/s)</source>
        <translation>UB Vector 写(GB/s)</translation>
    </message>
    <message>
        <source>UB Scalar Read(GB/s)</source>
        <translation>UB Scalar 读(GB/s)</translation>
    </message>
    <message>
        <source>UB Scalar Write(GB/s)</source>
        <translation>UB Scalar 写(GB/s)</translation>
    </message>
    <message>
        <source>UB MTE Read(GB/s)</source>
        <translation>UB MTE 读(GB/s)</translation>
    </message>
    <message>
        <source>UB MTE Write(GB/s)</source>
        <translation>UB MTE 写(GB/s)</translation>
    </message>
    <message>
        <source>Vector Bank Group Conflict Ratio</source>
        <translation>Vector bank group 冲突占比</translation>
    </message>
    <message>
        <source>Vector Bank Conflict Ratio</source>
        <translation>Vector bank 冲突占比</translation>
    </message>
    <message>
        <source>Vector Resource Conflict Ratio</source>
        <translation>Vector 资源冲突占比</translation>
    </message>
    <message>
        <source>MTE1 Queue Full Ratio</source>
        <translation>MTE1 队列满占比</translation>
    </message>
    <message>
        <source>MTE2 Queue Full Ratio</source>
        <translation>MTE2 队列满占比</translation>
    </message>
    <message>
        <source>MTE3 Queue Full Ratio</source>
        <translation>MTE3 队列满占比</translation>
    </message>
    <message>
        <source>Cube Queue Full Ratio</source>
        <translation>Cube 队列满占比</translation>
    </message>
    <message>
        <source>Vector Queue Full Ratio</source>
        <translation>Vector 队列满占比</translation>
    </message>
    <message>
        <source>Queue Full Ratio</source>
        <translation>队列满占比</translation>
    </message>
    <message>
        <source>Write Cache Hits</source>
        <translation>写缓存命中</translation>
    </message>
    <message>
        <source>Write Cache Miss Allocations</source>
        <translation>写缓存缺失分配</translation>
    </message>
    <message>
        <source>R0 Read Cache Hits</source>
        <translation>R0 读缓存命中</translation>
    </message>
    <message>
        <source>R1 Read Cache Hits</source>
        <translation>R1 读缓存命中</translation>
    </message>
    <message>
        <source>R0 Read Cache Miss Allocations</source>
        <translation>R0 读缓存缺失分配</translation>
    </message>
    <message>
        <source>R1 Read Cache Miss Allocations</source>
        <translation>R1 读缓存缺失分配</translation>
    </message>
    <message>
        <source>Read Cache Hits</source>
        <translation>读缓存命中</translation>
    </message>
    <message>
        <source>Read Cache Miss Allocations</source>
        <translation>读缓存缺失分配</translation>
    </message>
    <message>
        <source>Main Memory Read(KB)</source>
        <translation>主存读(KB)</translation>
    </message>
    <message>
        <source>Main Memory Write(KB)</source>
        <translation>主存写(KB)</translation>
    </message>
    <message>
        <source>GM to L1(KB)</source>
        <translation>GM 到 L1(KB)</translation>
    </message>
    <message>
        <source>L0C to L1(KB)</source>
        <translation>L0C 到 L1(KB)</translation>
    </message>
    <message>
        <source>L0C to GM(KB)</source>
        <translation>L0C 到 GM(KB)</translation>
    </message>
    <message>
        <source>GM to UB(KB)</source>
        <translation>GM 到 UB(KB)</translation>
    </message>
    <message>
        <source>UB to GM(KB)</source>
        <translation>UB 到 GM(KB)</translation>
    </message>
    <message>
        <source>Vector Execute Time(us)</source>
        <translation>Vector 执行耗时(us)</translation>
    </message>
    <message>
        <source>Vector Execute Ratio</source>
        <translation>Vector 执行占比</translation>
    </message>
    <message>
        <source>Cube Execute Time(us)</source>
        <translation>Cube 执行耗时(us)</translation>
    </message>
    <message>
        <source>Cube Execute Ratio</source>
        <translation>Cube 执行占比</translation>
    </message>
    <message>
        <source>Scalar Execute Time(us)</source>
        <translation>Scalar 执行耗时(us)</translation>
    </message>
    <message>
        <source>Scalar Execute Ratio</source>
        <translation>Scalar 执行占比</translation>
    </message>
    <message>
        <source>MTE1 Execute Time(us)</source>
        <translation>MTE1 执行耗时(us)</translation>
    </message>
    <message>
        <source>MTE1 Execute Ratio</source>
        <translation>MTE1 执行占比</translation>
    </message>
    <message>
        <source>MTE2 Execute Time(us)</source>
        <translation>MTE2 执行耗时(us)</translation>
    </message>
    <message>
        <source>MTE2 Execute Ratio</source>
        <translation>MTE2 执行占比</translation>
    </message>
    <message>
        <source>MTE3 Execute Time(us)</source>
        <translation>MTE3 执行耗时(us)</translation>
    </message>
    <message>
        <source>MTE3 Execute Ratio</source>
        <translation>MTE3 执行占比</translation>
    </message>
    <message>
        <source>Fixpipe Execute Time(us)</source>
        <translation>Fixpipe 执行耗时(us)</translation>
    </message>
    <message>
        <source>Fixpipe Execute Ratio</source>
        <translation>Fixpipe 执行占比</translation>
    </message>
    <message>
        <source>{0} (AIC)</source>
        <translation>{0} (AIC)</translation>
    </message>
    <message>
        <source>{0} (AIV)</source>
        <translation>{0} (AIV)</translation>
    </message>
</context>
<context>
    <name>CommPane</name>
    <message>
        <source>Show the ops (and the matrix) of one step</source>
        <translation>只显示一个迭代的算子（和矩阵）</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>全部迭代</translation>
    </message>
    <message>
        <source>Collective or point-to-point ops</source>
        <translation>集合通信或点对点通信算子</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Packet sizes (count)</source>
        <translation>包大小分布（个数）</translation>
    </message>
    <message>
        <source>One communication op of the matrix, or all of them aggregated</source>
        <translation>矩阵中的一个通信算子，或全部算子汇总</translation>
    </message>
    <message>
        <source>Show on Timeline</source>
        <translation>在时间线上显示</translation>
    </message>
    <message>
        <source>Go to the Timeline with the clicked op selected</source>
        <translation>转到时间线并选中所单击的算子</translation>
    </message>
    <message>
        <source>Matrix:</source>
        <translation>矩阵：</translation>
    </message>
    <message>
        <source>This report has no communication data.</source>
        <translation>此报告没有通信数据。</translation>
    </message>
    <message>
        <source>Click an op to see its bandwidth per transport.</source>
        <translation>单击一个算子，查看其各传输链路的带宽。</translation>
    </message>
    <message>
        <source>{0} ops; the highlighted rows are the totals of a step (Total Op Info).</source>
        <translation>{0} 个算子；高亮的行是一个迭代的汇总（Total Op Info）。</translation>
    </message>
    <message>
        <source>{0} (step {1}): bandwidth per transport</source>
        <translation>{0}（迭代 {1}）：各传输链路的带宽</translation>
    </message>
    <message>
        <source>{0} {1} MB</source>
        <translation>{0} {1} MB</translation>
    </message>
    <message>
        <source>packets</source>
        <translation>个包</translation>
    </message>
    <message>
        <source>Packet sizes of {0} (count)</source>
        <translation>{0} 的包大小分布（个数）</translation>
    </message>
    <message>
        <source>No packet-size distribution for {0}</source>
        <translation>{0} 没有包大小分布</translation>
    </message>
    <message>
        <source>All ops (aggregated)</source>
        <translation>全部算子（汇总）</translation>
    </message>
    <message>
        <source>No communication matrix in this report.</source>
        <translation>此报告没有通信矩阵。</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s) from source rank to destination rank: {0} ranks, {1} links.</source>
        <translation>源 Rank 到目的 Rank 的带宽（GB/s）：{0} 个 Rank，{1} 条链路。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Rank {0} → rank {1}</source>
        <translation>Rank {0} → Rank {1}</translation>
    </message>
    <message>
        <source>{0}: no link</source>
        <translation>{0}：无链路</translation>
    </message>
    <message>
        <source>Transport: {0}</source>
        <translation>传输类型：{0}</translation>
    </message>
    <message>
        <source>Bandwidth: {0} GB/s</source>
        <translation>带宽：{0} GB/s</translation>
    </message>
    <message>
        <source>Size: {0} MB</source>
        <translation>大小：{0} MB</translation>
    </message>
    <message>
        <source>Time: {0} ms</source>
        <translation>时间：{0} ms</translation>
    </message>
    <message>
        <source>Matrix entries summed: {0}</source>
        <translation>汇总的矩阵条目：{0}</translation>
    </message>
</context>
<context>
    <name>CommandBox</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the msprof command line</source>
        <translation>复制 msprof 命令行</translation>
    </message>
</context>
<context>
    <name>CommunicationView</name>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>Start (ms)</source>
        <translation>开始 (ms)</translation>
    </message>
    <message>
        <source>Elapse (ms)</source>
        <translation>总耗时 (ms)</translation>
    </message>
    <message>
        <source>Transit (ms)</source>
        <translation>传输 (ms)</translation>
    </message>
    <message>
        <source>Wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <source>Synchronization (ms)</source>
        <translation>同步 (ms)</translation>
    </message>
    <message>
        <source>Idle (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>Wait Ratio</source>
        <translation>等待占比</translation>
    </message>
    <message>
        <source>Synchronization Ratio</source>
        <translation>同步占比</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Transit Size (MB)</source>
        <translation>传输大小 (MB)</translation>
    </message>
    <message>
        <source>Transit Time (ms)</source>
        <translation>传输时间 (ms)</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Large Packet Ratio</source>
        <translation>大包占比</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>p2p</source>
        <translation>点对点</translation>
    </message>
    <message>
        <source>Total Op Info</source>
        <translation>汇总 (Total Op Info)</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <source>Compare {0} with {1}</source>
        <translation>比较 {0} 与 {1}</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Task Type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Base Count</source>
        <translation>基线次数</translation>
    </message>
    <message>
        <source>Current Count</source>
        <translation>当前次数</translation>
    </message>
    <message>
        <source>Base Total(us)</source>
        <translation>基线总耗时(us)</translation>
    </message>
    <message>
        <source>Current Total(us)</source>
        <translation>当前总耗时(us)</translation>
    </message>
    <message>
        <source>Diff(us)</source>
        <translation>差值(us)</translation>
    </message>
    <message>
        <source>Diff(%)</source>
        <translation>差值(%)</translation>
    </message>
    <message>
        <source>Base Avg(us)</source>
        <translation>基线平均耗时(us)</translation>
    </message>
    <message>
        <source>Current Avg(us)</source>
        <translation>当前平均耗时(us)</translation>
    </message>
    <message>
        <source>Avg Diff(us)</source>
        <translation>平均差值(us)</translation>
    </message>
    <message>
        <source>Avg Diff(%)</source>
        <translation>平均差值(%)</translation>
    </message>
    <message>
        <source>Base Per Step(us)</source>
        <translation>基线每步(us)</translation>
    </message>
    <message>
        <source>Current Per Step(us)</source>
        <translation>当前每步(us)</translation>
    </message>
    <message>
        <source>Per Step Diff(%)</source>
        <translation>每步差异(%)</translation>
    </message>
    <message>
        <source>Base Min(us)</source>
        <translation>基线最小耗时(us)</translation>
    </message>
    <message>
        <source>Current Min(us)</source>
        <translation>当前最小耗时(us)</translation>
    </message>
    <message>
        <source>Base Max(us)</source>
        <translation>基线最大耗时(us)</translation>
    </message>
    <message>
        <source>Current Max(us)</source>
        <translation>当前最大耗时(us)</translation>
    </message>
    <message>
        <source>Base First Start(ns)</source>
        <translation>基线首次开始(ns)</translation>
    </message>
    <message>
        <source>Current First Start(ns)</source>
        <translation>当前首次开始(ns)</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Base Name</source>
        <translation>基线名称</translation>
    </message>
    <message>
        <source>Current Name</source>
        <translation>当前名称</translation>
    </message>
    <message>
        <source>Base Start(ns)</source>
        <translation>基线开始(ns)</translation>
    </message>
    <message>
        <source>Current Start(ns)</source>
        <translation>当前开始(ns)</translation>
    </message>
    <message>
        <source>Base Duration(us)</source>
        <translation>基线耗时(us)</translation>
    </message>
    <message>
        <source>Current Duration(us)</source>
        <translation>当前耗时(us)</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Diff Ratio</source>
        <translation>差异比</translation>
    </message>
    <message>
        <source>Base Peak Time(ns)</source>
        <translation>基线峰值时间(ns)</translation>
    </message>
    <message>
        <source>Current Peak Time(ns)</source>
        <translation>当前峰值时间(ns)</translation>
    </message>
    <message>
        <source>Operator Name</source>
        <translation>算子名称</translation>
    </message>
    <message>
        <source>Base Size(KB)</source>
        <translation>基线大小(KB)</translation>
    </message>
    <message>
        <source>Current Size(KB)</source>
        <translation>当前大小(KB)</translation>
    </message>
    <message>
        <source>Diff Size(KB)</source>
        <translation>大小差值(KB)</translation>
    </message>
    <message>
        <source>Base Avg Size(KB)</source>
        <translation>基线平均大小(KB)</translation>
    </message>
    <message>
        <source>Current Avg Size(KB)</source>
        <translation>当前平均大小(KB)</translation>
    </message>
    <message>
        <source>Base Per Step(KB)</source>
        <translation>基线每步(KB)</translation>
    </message>
    <message>
        <source>Current Per Step(KB)</source>
        <translation>当前每步(KB)</translation>
    </message>
    <message>
        <source>Diff Duration(us)</source>
        <translation>耗时差值(us)</translation>
    </message>
    <message>
        <source>Communication OP Name</source>
        <translation>通信算子名称</translation>
    </message>
    <message>
        <source>Base Calls</source>
        <translation>基线调用次数</translation>
    </message>
    <message>
        <source>Current Calls</source>
        <translation>当前调用次数</translation>
    </message>
    <message>
        <source>slower</source>
        <translation>变慢</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>faster</source>
        <translation>变快</translation>
    </message>
    <message>
        <source>higher</source>
        <translation>升高</translation>
    </message>
    <message>
        <source>lower</source>
        <translation>降低</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Baseline Comparison</source>
        <translation>基线比较</translation>
    </message>
    <message>
        <source>OP type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Op name</source>
        <translation>算子名称</translation>
    </message>
    <message>
        <source>Baseline report:</source>
        <translation>基线报告：</translation>
    </message>
    <message>
        <source>Current report:</source>
        <translation>当前报告：</translation>
    </message>
    <message>
        <source>Match operators by:</source>
        <translation>算子匹配方式：</translation>
    </message>
    <message>
        <source>Same within:</source>
        <translation>视为相同的容差：</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
</context>
<context>
    <name>CompareMetric</name>
    <message>
        <source>Total device time</source>
        <translation>设备总耗时</translation>
    </message>
    <message>
        <source>Device time per step</source>
        <translation>每步设备耗时</translation>
    </message>
    <message>
        <source>Device tasks</source>
        <translation>设备任务数</translation>
    </message>
    <message>
        <source>AI Core time</source>
        <translation>AI Core 耗时</translation>
    </message>
    <message>
        <source>AI CPU time</source>
        <translation>AI CPU 耗时</translation>
    </message>
    <message>
        <source>Communication time</source>
        <translation>通信耗时</translation>
    </message>
    <message>
        <source>Free time (device idle between tasks)</source>
        <translation>空闲时间（任务之间设备空闲）</translation>
    </message>
    <message>
        <source>End-to-end span</source>
        <translation>端到端时长</translation>
    </message>
    <message>
        <source>Step trace: {0}</source>
        <translation>迭代轨迹：{0}</translation>
    </message>
    <message>
        <source>count</source>
        <translation>个</translation>
    </message>
    <message>
        <source>us</source>
        <translation>us</translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <source>Peak reserved</source>
        <translation>已预留峰值</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
</context>
<context>
    <name>CompareRanksDialog</name>
    <message>
        <source>Compare Ranks</source>
        <translation>比较 Rank</translation>
    </message>
    <message>
        <source>Rank {0}</source>
        <translation>Rank {0}</translation>
    </message>
    <message>
        <source>&amp;Compare rank</source>
        <translation>比较 Rank(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;With rank</source>
        <translation>与 Rank(&amp;W)</translation>
    </message>
    <message>
        <source>Choose two different ranks.</source>
        <translation>请选择两个不同的 Rank。</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Chip</source>
        <translation>芯片</translation>
    </message>
    <message>
        <source>CANN</source>
        <translation>CANN</translation>
    </message>
    <message>
        <source>PMU group</source>
        <translation>PMU 分组</translation>
    </message>
    <message>
        <source>OPs</source>
        <translation>算子 (OPs)</translation>
    </message>
    <message>
        <source>Total device time</source>
        <translation>设备总耗时</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代步数</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Total device time: {0} → {1} µs, {2} µs ({3})</source>
        <translation>设备总耗时：{0} → {1} µs，{2} µs（{3}）</translation>
    </message>
    <message>
        <source> Device time per step: {0} → {1} µs ({2}).</source>
        <translation> 每步设备时间：{0} → {1} µs（{2}）。</translation>
    </message>
    <message>
        <source>Statuses compare the time per step ({0} base steps, {1} current steps).</source>
        <translation>状态按每步时间比较（基线 {0} 步，当前 {1} 步）。</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>Statuses compare the average time per call: the {0} report records no steps.</source>
        <translation>状态按每次调用的平均时间比较：{0}报告未记录迭代步。</translation>
    </message>
    <message>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <source>By OP type</source>
        <translation>按算子类型</translation>
    </message>
    <message>
        <source>By op name</source>
        <translation>按算子名称</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Export to Excel…</source>
        <translation>导出到 Excel…</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Overall</source>
        <translation>总览</translation>
    </message>
    <message>
        <source>AI Core Metrics</source>
        <translation>AI Core 指标</translation>
    </message>
    <message>
        <source>Top regressions / improvements (µs)</source>
        <translation>劣化 / 优化最多的项 (µs)</translation>
    </message>
    <message>
        <source>Memory Peaks</source>
        <translation>内存峰值</translation>
    </message>
    <message>
        <source>Memory per Operator</source>
        <translation>各算子内存</translation>
    </message>
    <message>
        <source>Peak memory per component (memory_record)</source>
        <translation>各组件内存峰值（memory_record）</translation>
    </message>
    <message>
        <source>Allocations per operator (operator_memory)</source>
        <translation>各算子内存分配（operator_memory）</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>No AI Core metrics on both sides to compare.</source>
        <translation>两份报告中没有共同的 AI Core 指标可供比较。</translation>
    </message>
    <message>
        <source>No memory peaks to compare: memory_record is not in both reports.</source>
        <translation>没有可比较的内存峰值：两份报告并非都有 memory_record。</translation>
    </message>
    <message>
        <source>No operator memory to compare: operator_memory is not in both reports.</source>
        <translation>没有可比较的算子内存：两份报告并非都有 operator_memory。</translation>
    </message>
    <message>
        <source>No communication to compare: communication.json is not in both reports.</source>
        <translation>没有可比较的通信：两份报告并非都有 communication.json。</translation>
    </message>
    <message>
        <source>No operator appears in both reports: nothing to pair. Both summaries are shown above.</source>
        <translation>没有同时出现在两份报告中的算子：无法配对。两份报告的摘要均显示在上方。</translation>
    </message>
    <message>
        <source>No regressions or improvements beyond the tolerance</source>
        <translation>没有超出容差的劣化或优化</translation>
    </message>
    <message>
        <source>Export Comparison</source>
        <translation>导出比较结果</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
</context>
<context>
    <name>CompareWarning</name>
    <message>
        <source>different device IDs: {0}</source>
        <translation>设备 ID 不同：{0}</translation>
    </message>
    <message>
        <source>base device {0} compared with current device {1}</source>
        <translation>基线设备 {0} 与当前设备 {1} 对比</translation>
    </message>
    <message>
        <source>base device(s) {0} left out of the comparison (no counterpart on the other side)</source>
        <translation>基线设备 {0} 未参与对比（另一侧没有对应设备）</translation>
    </message>
    <message>
        <source>current device(s) {0} left out of the comparison (no counterpart on the other side)</source>
        <translation>当前设备 {0} 未参与对比（另一侧没有对应设备）</translation>
    </message>
    <message>
        <source>different kinds of report: base is {0} output, current is {1} output (OPs are matched by key; the tools may count time differently)</source>
        <translation>报告种类不同：基线为 {0} 输出，当前为 {1} 输出（算子按键匹配；两种工具的计时方式可能不同）</translation>
    </message>
    <message>
        <source>different chip / SoC: base {0}, current {1}</source>
        <translation>芯片 / SoC 不同：基线 {0}，当前 {1}</translation>
    </message>
    <message>
        <source>different CANN version: base {0}, current {1}</source>
        <translation>CANN 版本不同：基线 {0}，当前 {1}</translation>
    </message>
    <message>
        <source>different model name: base {0}, current {1}</source>
        <translation>模型名称不同：基线 {0}，当前 {1}</translation>
    </message>
    <message>
        <source>different AI Core PMU group: base {0}, current {1}</source>
        <translation>AI Core PMU 分组不同：基线 {0}，当前 {1}</translation>
    </message>
    <message>
        <source>chip / SoC not recorded in current (the base has {0}): cannot check that they match</source>
        <translation>当前报告未记录芯片 / SoC（基线为 {0}）：无法确认两者一致</translation>
    </message>
    <message>
        <source>chip / SoC not recorded in base (the current has {0}): cannot check that they match</source>
        <translation>基线报告未记录芯片 / SoC（当前为 {0}）：无法确认两者一致</translation>
    </message>
    <message>
        <source>CANN version not recorded in current (the base has {0}): cannot check that they match</source>
        <translation>当前报告未记录 CANN 版本（基线为 {0}）：无法确认两者一致</translation>
    </message>
    <message>
        <source>CANN version not recorded in base (the current has {0}): cannot check that they match</source>
        <translation>基线报告未记录 CANN 版本（当前为 {0}）：无法确认两者一致</translation>
    </message>
    <message>
        <source>model name not recorded in current (the base has {0}): cannot check that they match</source>
        <translation>当前报告未记录模型名称（基线为 {0}）：无法确认两者一致</translation>
    </message>
    <message>
        <source>model name not recorded in base (the current has {0}): cannot check that they match</source>
        <translation>基线报告未记录模型名称（当前为 {0}）：无法确认两者一致</translation>
    </message>
    <message>
        <source>current has no OPs table (op_summary / kernel_details): all its OP rows show as added / removed</source>
        <translation>当前报告没有算子表（op_summary / kernel_details）：其所有算子行都显示为新增 / 移除</translation>
    </message>
    <message>
        <source>base has no OPs table (op_summary / kernel_details): all its OP rows show as added / removed</source>
        <translation>基线报告没有算子表（op_summary / kernel_details）：其所有算子行都显示为新增 / 移除</translation>
    </message>
    <message>
        <source>current has no AI Core metrics (PMU data): AI Core metrics are not compared</source>
        <translation>当前报告没有 AI Core 指标（PMU 数据）：不对比 AI Core 指标</translation>
    </message>
    <message>
        <source>base has no AI Core metrics (PMU data): AI Core metrics are not compared</source>
        <translation>基线报告没有 AI Core 指标（PMU 数据）：不对比 AI Core 指标</translation>
    </message>
    <message>
        <source>current has no step_trace_time table: step trace rows are left out</source>
        <translation>当前报告没有 step_trace_time 表：不包含迭代轨迹行</translation>
    </message>
    <message>
        <source>base has no step_trace_time table: step trace rows are left out</source>
        <translation>基线报告没有 step_trace_time 表：不包含迭代轨迹行</translation>
    </message>
    <message>
        <source>neither report has an OPs table (op_summary / kernel_details): no OP rows to compare</source>
        <translation>两个报告都没有算子表（op_summary / kernel_details）：没有可对比的算子行</translation>
    </message>
    <message>
        <source>base OPs have no task type: AI Core / AI CPU / communication times left out</source>
        <translation>基线算子没有任务类型：不计入 AI Core / AI CPU / 通信耗时</translation>
    </message>
    <message>
        <source>current OPs have no task type: AI Core / AI CPU / communication times left out</source>
        <translation>当前算子没有任务类型：不计入 AI Core / AI CPU / 通信耗时</translation>
    </message>
    <message>
        <source>AI Core metrics only in base (not compared): {0}</source>
        <translation>仅基线报告有的 AI Core 指标（未对比）：{0}</translation>
    </message>
    <message>
        <source>AI Core metrics only in current (not compared): {0}</source>
        <translation>仅当前报告有的 AI Core 指标（未对比）：{0}</translation>
    </message>
    <message>
        <source>no OP type is present in both reports: every row is added or removed</source>
        <translation>没有算子类型同时出现在两个报告中：每一行都是新增或移除</translation>
    </message>
    <message>
        <source>no OP name is present in both reports: every row is added or removed</source>
        <translation>没有算子名称同时出现在两个报告中：每一行都是新增或移除</translation>
    </message>
    <message>
        <source>base has no memory_record (memory per component): memory peaks are not compared</source>
        <translation>基线报告没有 memory_record（各组件内存）：不对比内存峰值</translation>
    </message>
    <message>
        <source>current has no memory_record (memory per component): memory peaks are not compared</source>
        <translation>当前报告没有 memory_record（各组件内存）：不对比内存峰值</translation>
    </message>
    <message>
        <source>base has no operator_memory (memory per operator): operator memory is not compared</source>
        <translation>基线报告没有 operator_memory（各算子内存）：不对比算子内存</translation>
    </message>
    <message>
        <source>current has no operator_memory (memory per operator): operator memory is not compared</source>
        <translation>当前报告没有 operator_memory（各算子内存）：不对比算子内存</translation>
    </message>
    <message>
        <source>base has no communication.json (communication operators): communication is not compared</source>
        <translation>基线报告没有 communication.json（通信算子）：不对比通信</translation>
    </message>
    <message>
        <source>current has no communication.json (communication operators): communication is not compared</source>
        <translation>当前报告没有 communication.json（通信算子）：不对比通信</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>ComparisonTab</name>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>Converter</name>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决方法：</translation>
    </message>
</context>
<context>
    <name>ConverterPage</name>
    <message>
        <source>atc command:</source>
        <translation>atc 命令：</translation>
    </message>
    <message>
        <source>Errors on other pages: {0}</source>
        <translation>其他页面上的错误：{0}</translation>
    </message>
</context>
<context>
    <name>ConverterWizard</name>
    <message>
        <source>Model Converter</source>
        <translation>模型转换</translation>
    </message>
    <message>
        <source>Convert</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>Open Model Structure</source>
        <translation>打开模型结构</translation>
    </message>
    <message>
        <source>Could not remember the converter's values: {0}</source>
        <translation>无法记住模型转换的参数值：{0}</translation>
    </message>
    <message>
        <source>The model is on the host or not found locally: enter its inputs by hand.</source>
        <translation>模型位于主机上或在本地找不到：请手动输入其输入信息。</translation>
    </message>
    <message>
        <source>Read model {0}</source>
        <translation>读取模型 {0}</translation>
    </message>
    <message>
        <source>Reading the NPU type on {0}…</source>
        <translation>正在读取 {0} 上的 NPU 型号…</translation>
    </message>
    <message>
        <source>Detect SoC on {0}</source>
        <translation>检测 {0} 上的 SoC</translation>
    </message>
    <message>
        <source>Fix the errors shown on the pages first</source>
        <translation>请先修复各页面上显示的错误</translation>
    </message>
    <message>
        <source>{0} exists. Replace it with the new model?</source>
        <translation>{0} 已存在。要用新模型替换它吗？</translation>
    </message>
    <message>
        <source>Cannot use the CANN machine</source>
        <translation>无法使用该 CANN 机器</translation>
    </message>
    <message>
        <source>Convert {0}</source>
        <translation>转换 {0}</translation>
    </message>
    <message>
        <source>Converted: {0}</source>
        <translation>已转换：{0}</translation>
    </message>
    <message>
        <source>Conversion failed</source>
        <translation>转换失败</translation>
    </message>
    <message>
        <source>Conversion stopped</source>
        <translation>转换已停止</translation>
    </message>
    <message>
        <source>atc was stopped on the host; nothing was downloaded.</source>
        <translation>已在主机上停止 atc；未下载任何内容。</translation>
    </message>
</context>
<context>
    <name>DeploymentDialog</name>
    <message>
        <source>Deployment — {0}</source>
        <translation>部署 — {0}</translation>
    </message>
    <message>
        <source>Local folder</source>
        <translation>本地目录</translation>
    </message>
    <message>
        <source>Remote folder</source>
        <translation>远端目录</translation>
    </message>
    <message>
        <source>Excluded (globs, comma-separated)</source>
        <translation>排除（通配符，逗号分隔）</translation>
    </message>
    <message>
        <source>Add Mapping</source>
        <translation>添加映射</translation>
    </message>
    <message>
        <source>Remove Mapping</source>
        <translation>移除映射</translation>
    </message>
    <message>
        <source>Save Mappings</source>
        <translation>保存映射</translation>
    </message>
    <message>
        <source>Compute Plan</source>
        <translation>计算同步计划</translation>
    </message>
    <message>
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>Pull Back…</source>
        <translation>拉回…</translation>
    </message>
    <message>
        <source>Bring a remote file or folder (relative to the first mapping) into the project</source>
        <translation>把远端文件或目录（相对于第一个映射）取回到工程中</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Local size</source>
        <translation>本地大小</translation>
    </message>
    <message>
        <source>Remote size</source>
        <translation>远端大小</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>mapping {0}</source>
        <translation>映射 {0}</translation>
    </message>
    <message>
        <source>Mappings saved in the project.</source>
        <translation>映射已保存到工程中。</translation>
    </message>
    <message>
        <source>Deployment plan for {0}</source>
        <translation>{0} 的部署计划</translation>
    </message>
    <message>
        <source>Synced to {0}. Files sent: {1} ({2} bytes); folders created: {3}; deleted on the host: {4}; kept, only on the host: {5}.</source>
        <translation>已同步到 {0}。发送文件：{1} 个（{2} 字节）；新建文件夹：{3} 个；在主机上删除：{4} 个；保留（仅在主机上）：{5} 个。</translation>
    </message>
    <message>
        <source>Conflicts not sent (the host's copy was kept): {0}.</source>
        <translation>未发送的冲突（保留了主机上的副本）：{0}。</translation>
    </message>
    <message>
        <source>Not sent: {0}.</source>
        <translation>未发送：{0} 个。</translation>
    </message>
    <message>
        <source>Pulled to {0}</source>
        <translation>已拉回到 {0}</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>remote only — delete?</source>
        <translation>仅远端存在 — 删除？</translation>
    </message>
    <message>
        <source>new folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>symbolic link — not sent</source>
        <translation>符号链接 — 不发送</translation>
    </message>
    <message>
        <source>conflict: edited here and on the host — overwrite the host's copy?</source>
        <translation>冲突：本地和主机上都已修改 — 覆盖主机上的副本？</translation>
    </message>
    <message>
        <source>changed on the host — overwrite with the local copy?</source>
        <translation>主机上已修改 — 用本地副本覆盖？</translation>
    </message>
    <message>
        <source>{0} new, {1} changed, {2} unchanged, {4} folders to create; {3} only on the host (kept unless ticked).</source>
        <translation>新增 {0} 个，更改 {1} 个，未变 {2} 个，待创建文件夹 {4} 个；仅在主机上 {3} 个（未勾选则保留）。</translation>
    </message>
    <message>
        <source>{0} conflicts: changed on the host since the last sync, not sent unless ticked.</source>
        <translation>{0} 个冲突：自上次同步后在主机上已修改，除非勾选，否则不发送。</translation>
    </message>
    <message>
        <source>Sync, overwrite {0} host edits and delete {1} remote files</source>
        <translation>同步，覆盖 {0} 个主机上的修改并删除 {1} 个远程文件</translation>
    </message>
    <message>
        <source>Sync and overwrite {0} host edits</source>
        <translation>同步并覆盖 {0} 个主机上的修改</translation>
    </message>
    <message>
        <source>Sync and delete {0} remote files</source>
        <translation>同步并删除 {0} 个远端文件</translation>
    </message>
    <message>
        <source>Delete Remote Files</source>
        <translation>删除远端文件</translation>
    </message>
    <message>
        <source>Delete {0} files that exist only on the host? This cannot be undone.</source>
        <translation>删除 {0} 个仅存在于主机上的文件吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Sync {0}</source>
        <translation>同步 {0}</translation>
    </message>
    <message>
        <source>Pull Back</source>
        <translation>拉回</translation>
    </message>
    <message>
        <source>Remote path relative to {0}:</source>
        <translation>相对于 {0} 的远端路径：</translation>
    </message>
    <message>
        <source>Pull {0}</source>
        <translation>拉回 {0}</translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Nothing selected</source>
        <translation>未选择任何内容</translation>
    </message>
    <message>
        <source>Double-click or right-click: {0}</source>
        <translation>双击或右键：{0}</translation>
    </message>
    <message>
        <source>Copy Value</source>
        <translation>复制值</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>Double-click a row of the tables to compare the input file with the migrated one.</source>
        <translation>双击表格中的一行，对比输入文件与迁移后的文件。</translation>
    </message>
    <message>
        <source>Input (GPU)</source>
        <translation>输入（GPU）</translation>
    </message>
    <message>
        <source>Migrated (NPU)</source>
        <translation>迁移后（NPU）</translation>
    </message>
    <message>
        <source>{0}: {1} — not found</source>
        <translation>{0}：{1} — 未找到</translation>
    </message>
</context>
<context>
    <name>DumpConfigDialog</name>
    <message>
        <source>Dump Configuration</source>
        <translation>Dump 配置</translation>
    </message>
    <message>
        <source>Offline Model</source>
        <translation>离线模型</translation>
    </message>
    <message>
        <source>Offline models (*.om *.json);;All files (*)</source>
        <translation>离线模型 (*.om *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>an .om (read on the CANN machine) or its om JSON</source>
        <translation>.om 文件（在 CANN 机器上读取）或其 om JSON</translation>
    </message>
    <message>
        <source>The .om is on the machine</source>
        <translation>.om 位于所选机器上</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>Offline model</source>
        <translation>离线模型</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Several</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Dump Path</source>
        <translation>Dump 路径</translation>
    </message>
    <message>
        <source>{0} (written when dumping is turned on)</source>
        <translation>{0}（开启 Dump 时写入）</translation>
    </message>
    <message>
        <source>Read by the runtime on the machine the application runs on: a relative path is relative to the application's working folder (the deployed project folder on a CANN machine); the folder must exist there.</source>
        <translation>由应用程序所在机器上的运行时读取：相对路径相对于应用程序的工作目录（在 CANN 机器上即部署后的工程目录）；该目录必须在那里已存在。</translation>
    </message>
    <message>
        <source>Tensor data</source>
        <translation>张量数据</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计信息</translation>
    </message>
    <message>
        <source>Dump single-operator calls (dump_op_switch)</source>
        <translation>Dump 单算子调用（dump_op_switch）</translation>
    </message>
    <message>
        <source>(not set: the runtime's default)</source>
        <translation>（未设置：使用运行时的默认值）</translation>
    </message>
    <message>
        <source>op</source>
        <translation>op</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>kernel</translation>
    </message>
    <message>
        <source>all</source>
        <translation>all</translation>
    </message>
    <message>
        <source>every iteration (e.g. 0|5|10-20)</source>
        <translation>每个迭代（例如 0|5|10-20）</translation>
    </message>
    <message>
        <source>Dump overflowing operators (dump_debug)</source>
        <translation>Dump 溢出算子（dump_debug）</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>AclConfig File</source>
        <translation>AclConfig 文件</translation>
    </message>
    <message>
        <source>acl.json (*.json);;All files (*)</source>
        <translation>acl.json (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Dump</source>
        <translation>Dump</translation>
    </message>
    <message>
        <source>AclConfig file:</source>
        <translation>AclConfig 文件：</translation>
    </message>
    <message>
        <source>Model name:</source>
        <translation>模型名称：</translation>
    </message>
    <message>
        <source>Dump option:</source>
        <translation>Dump 选项：</translation>
    </message>
    <message>
        <source>Dump mode:</source>
        <translation>Dump 模式：</translation>
    </message>
    <message>
        <source>Dump path:</source>
        <translation>Dump 路径：</translation>
    </message>
    <message>
        <source>Dump data:</source>
        <translation>Dump 数据：</translation>
    </message>
    <message>
        <source>Statistics:</source>
        <translation>统计信息：</translation>
    </message>
    <message>
        <source>Dump level:</source>
        <translation>Dump 级别：</translation>
    </message>
    <message>
        <source>Dump steps:</source>
        <translation>Dump 迭代：</translation>
    </message>
    <message>
        <source>Dump scene:</source>
        <translation>Dump 场景：</translation>
    </message>
    <message>
        <source>Resulting acl.json:</source>
        <translation>生成的 acl.json：</translation>
    </message>
    <message>
        <source>line {0}, column {1}</source>
        <translation>第 {0} 行，第 {1} 列</translation>
    </message>
    <message>
        <source>{0} cannot be read ({1}): {2}. Saving will ask before replacing it.</source>
        <translation>无法读取 {0}（{1}）：{2}。保存时会先询问是否替换。</translation>
    </message>
    <message>
        <source>{0} does not exist yet: it will be created.</source>
        <translation>{0} 尚不存在：将会创建。</translation>
    </message>
    <message>
        <source>Editing {0}; keys this editor does not manage are kept.</source>
        <translation>正在编辑 {0}；此编辑器不管理的键会被保留。</translation>
    </message>
    <message>
        <source>Choose the acl.json to write.</source>
        <translation>请选择要写入的 acl.json。</translation>
    </message>
    <message>
        <source>{0} (from the file)</source>
        <translation>{0}（来自文件）</translation>
    </message>
    <message>
        <source>Also in the file, kept as it is:</source>
        <translation>文件中还有以下内容，保持不变：</translation>
    </message>
    <message>
        <source>Read {0} with atc --mode=1</source>
        <translation>使用 atc --mode=1 读取 {0}</translation>
    </message>
    <message>
        <source>Read {0}</source>
        <translation>读取 {0}</translation>
    </message>
    <message>
        <source>Reading the model…</source>
        <translation>正在读取模型…</translation>
    </message>
    <message>
        <source>{0}: {1} ops ({2} dumped by the runtime), from {3}</source>
        <translation>{0}：{1} 个算子（其中 {2} 个由运行时 Dump），来自 {3}</translation>
    </message>
    <message>
        <source>(load the model to know its name)</source>
        <translation>（加载模型后才能得知其名称）</translation>
    </message>
    <message>
        <source>Ops listed in the file: {0}</source>
        <translation>文件中列出的算子：{0}</translation>
    </message>
    <message>
        <source>Load the offline model: model_name is its om JSON's top-level name.</source>
        <translation>请加载离线模型：model_name 为其 om JSON 的顶层名称。</translation>
    </message>
    <message>
        <source>Dump option Several: tick the ops to dump in the tree.</source>
        <translation>Dump 选项为“部分”：请在树中勾选要 Dump 的算子。</translation>
    </message>
    <message>
        <source>Choose the AclConfig file to write.</source>
        <translation>请选择要写入的 AclConfig 文件。</translation>
    </message>
    <message>
        <source>Not saved: {0} was left unchanged.</source>
        <translation>未保存：{0} 保持不变。</translation>
    </message>
    <message>
        <source>Not saved: {0} is read-only and was left unchanged.</source>
        <translation>未保存：{0} 为只读文件，未作改动。</translation>
    </message>
    <message>
        <source>Not saved: {0}</source>
        <translation>未保存：{0}</translation>
    </message>
    <message>
        <source> (the unreadable file was kept as {0})</source>
        <translation> （无法读取的文件已保留为 {0}）</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source> (nothing changed: the file was left as it is)</source>
        <translation>（没有修改：文件保持原样）</translation>
    </message>
    <message>
        <source>Replace a read-only file?</source>
        <translation>替换只读文件？</translation>
    </message>
    <message>
        <source>{0} is read-only: somebody protected it against changes.

Replace it with the configuration shown anyway? It stays read-only.</source>
        <translation>{0} 为只读文件：有人对其设置了写保护。

仍要用当前显示的配置替换它吗？替换后它仍为只读。</translation>
    </message>
    <message>
        <source>Replace acl.json?</source>
        <translation>替换 acl.json？</translation>
    </message>
    <message>
        <source>{0} is not valid JSON (line {1}, column {2}).

Replace it with the configuration shown? The current file will be kept as {3}.corrupt.</source>
        <translation>{0} 不是有效的 JSON（第 {1} 行，第 {2} 列）。

要用所示配置替换它吗？当前文件将保留为 {3}.corrupt。</translation>
    </message>
</context>
<context>
    <name>DumpDataView</name>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Model ID</source>
        <translation>模型 ID</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Timestamp</source>
        <translation>时间戳</translation>
    </message>
    <message>
        <source>Data type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Shape</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Std deviation</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation>零值个数</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>-Inf</source>
        <translation>-Inf</translation>
    </message>
    <message>
        <source>Convert to .npy…</source>
        <translation>转换为 .npy…</translation>
    </message>
    <message>
        <source>Convert every dump file below this folder to .npy files</source>
        <translation>将此文件夹下的所有 Dump 文件转换为 .npy 文件</translation>
    </message>
    <message>
        <source>A .npy file is already a NumPy array</source>
        <translation>.npy 文件本身已是 NumPy 数组</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Op / tensor</source>
        <translation>算子 / 张量</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Select a tensor to see its statistics.</source>
        <translation>选择一个张量以查看其统计信息。</translation>
    </message>
    <message>
        <source>Statistic</source>
        <translation>统计项</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Export .npy…</source>
        <translation>导出 .npy…</translation>
    </message>
    <message>
        <source>Export .txt…</source>
        <translation>导出 .txt…</translation>
    </message>
    <message>
        <source>Reading {0}…</source>
        <translation>正在读取 {0}…</translation>
    </message>
    <message>
        <source>Read dump {0}</source>
        <translation>读取 Dump {0}</translation>
    </message>
    <message>
        <source>(damaged)</source>
        <translation>（已损坏）</translation>
    </message>
    <message>
        <source>NumPy array</source>
        <translation>NumPy 数组</translation>
    </message>
    <message>
        <source>{0}: not a readable .npy file</source>
        <translation>{0}：不是可读取的 .npy 文件</translation>
    </message>
    <message>
        <source>{0}: NumPy array</source>
        <translation>{0}：NumPy 数组</translation>
    </message>
    <message>
        <source>{0}: {1} dump files</source>
        <translation>{0}：{1} 个 Dump 文件</translation>
    </message>
    <message>
        <source>{0} damaged (hover them for the reason)</source>
        <translation>{0} 个已损坏（鼠标悬停可查看原因）</translation>
    </message>
    <message>
        <source>{0} — {1} {2}</source>
        <translation>{0} — {1} {2}</translation>
    </message>
    <message>
        <source>(reading…)</source>
        <translation>（读取中…）</translation>
    </message>
    <message>
        <source>Statistics of {0}</source>
        <translation>{0} 的统计信息</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy 数组 (*.npy)</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>文本 (*.txt)</translation>
    </message>
    <message>
        <source>Export Tensor</source>
        <translation>导出张量</translation>
    </message>
    <message>
        <source>Export {0}</source>
        <translation>导出 {0}</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>Convert to .npy: output folder</source>
        <translation>转换为 .npy：输出目录</translation>
    </message>
    <message>
        <source>Convert {0} to .npy</source>
        <translation>将 {0} 转换为 .npy</translation>
    </message>
    <message>
        <source>Converted {0} files into {1}: {2} .npy files written</source>
        <translation>已将 {0} 个文件转换到 {1}：共写入 {2} 个 .npy 文件</translation>
    </message>
    <message>
        <source>{0} failed (see the Output tab)</source>
        <translation>{0} 失败（请查看“输出”页签）</translation>
    </message>
    <message>
        <source>Dump: {0}, iteration {1}</source>
        <translation>Dump：{0}，迭代 {1}</translation>
    </message>
    <message>
        <source>Dump: {0} ({1})</source>
        <translation>Dump：{0}（{1}）</translation>
    </message>
    <message>
        <source>Dump: {0}</source>
        <translation>Dump：{0}</translation>
    </message>
</context>
<context>
    <name>ElidedLabel</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>ExecutablePage</name>
    <message>
        <source>Executable Properties</source>
        <translation>可执行文件属性</translation>
    </message>
    <message>
        <source>What to profile and where: the application runs on the CANN machine under msprof.</source>
        <translation>分析什么、在哪里分析：应用在 CANN 机器上通过 msprof 运行。</translation>
    </message>
    <message>
        <source>Check Host</source>
        <translation>检查主机</translation>
    </message>
    <message>
        <source>Look for the CANN toolkit and the NPUs on the host again</source>
        <translation>重新在主机上查找 CANN 工具包和 NPU</translation>
    </message>
    <message>
        <source>Deploy the app project to the host before running</source>
        <translation>运行前将应用工程部署到主机</translation>
    </message>
    <message>
        <source>Deployment…</source>
        <translation>部署…</translation>
    </message>
    <message>
        <source>local folder of the application (optional)</source>
        <translation>应用的本地文件夹（可选）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>e.g. ./out/main, main.py or run.sh (relative to the working folder)</source>
        <translation>例如 ./out/main、main.py 或 run.sh（相对于工作目录）</translation>
    </message>
    <message>
        <source>Python interpreter:</source>
        <translation>Python 解释器：</translation>
    </message>
    <message>
        <source>Note: MindStudio requires absolute paths inside acl Python projects (models, input data): the script runs from the deployed folder on the host.</source>
        <translation>注意：MindStudio 要求 acl Python 工程中（模型、输入数据）使用绝对路径：脚本在主机上的部署目录中运行。</translation>
    </message>
    <message>
        <source>arguments as in a shell, e.g. --model /opt/m.om --loop 10</source>
        <translation>与 shell 中相同的参数写法，例如 --model /opt/m.om --loop 10</translation>
    </message>
    <message>
        <source>NAME=value, one per line</source>
        <translation>NAME=value，每行一个</translation>
    </message>
    <message>
        <source>default: the deployed project (Remote) or the project (Local)</source>
        <translation>默认：已部署的工程（远端）或工程本身（本地）</translation>
    </message>
    <message>
        <source>filled from the host; e.g. /usr/local/Ascend/ascend-toolkit/latest</source>
        <translation>从主机自动填入；例如 /usr/local/Ascend/ascend-toolkit/latest</translation>
    </message>
    <message>
        <source>e.g. 0,1 — sets ASCEND_RT_VISIBLE_DEVICES (empty: all)</source>
        <translation>例如 0,1 — 设置 ASCEND_RT_VISIBLE_DEVICES（留空：全部）</translation>
    </message>
    <message>
        <source>Run mode:</source>
        <translation>运行模式：</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>App project path:</source>
        <translation>应用工程路径：</translation>
    </message>
    <message>
        <source>Project type:</source>
        <translation>工程类型：</translation>
    </message>
    <message>
        <source>Deployment:</source>
        <translation>部署：</translation>
    </message>
    <message>
        <source>Executable type:</source>
        <translation>可执行文件类型：</translation>
    </message>
    <message>
        <source>Executable:</source>
        <translation>可执行文件：</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>环境变量：</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>工作目录：</translation>
    </message>
    <message>
        <source>Toolkit path:</source>
        <translation>工具包路径：</translation>
    </message>
    <message>
        <source>Devices:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Arguments: {0}</source>
        <translation>参数：{0}</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>(no app project: nothing is deployed)</source>
        <translation>（无应用工程：不部署任何内容）</translation>
    </message>
    <message>
        <source>{0}: no such folder</source>
        <translation>{0}：文件夹不存在</translation>
    </message>
    <message>
        <source>(not a workbench project: runs are kept but not listed in a project)</source>
        <translation>（不是工作台工程：运行记录会保留，但不会列在工程中）</translation>
    </message>
    <message>
        <source>Local mode runs on this machine: nothing is deployed.</source>
        <translation>本地模式在本机运行：不部署任何内容。</translation>
    </message>
    <message>
        <source>No app project: the executable must already be on the host.</source>
        <translation>无应用工程：可执行文件必须已位于主机上。</translation>
    </message>
    <message>
        <source>Not deployed: the project must already be on the host.</source>
        <translation>未部署：工程必须已位于主机上。</translation>
    </message>
    <message>
        <source>New and changed files are copied to the host first: {0}</source>
        <translation>新增和修改的文件会先复制到主机：{0}</translation>
    </message>
    <message>
        <source>App Project Path</source>
        <translation>应用工程路径</translation>
    </message>
    <message>
        <source>Executable</source>
        <translation>可执行文件</translation>
    </message>
</context>
<context>
    <name>FrameTable</name>
    <message>
        <source>Filter rows</source>
        <translation>筛选行</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected cells as tab-separated text (Ctrl+C)</source>
        <translation>将选中的单元格复制为制表符分隔的文本（Ctrl+C）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Export the shown rows to CSV or Excel</source>
        <translation>将显示的行导出为 CSV 或 Excel</translation>
    </message>
    <message>
        <source>{0} of {1} rows</source>
        <translation>{0} / {1} 行</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel 工作簿 (*.xlsx);;CSV (*.csv)</translation>
    </message>
</context>
<context>
    <name>GraphDocument</name>
    <message>
        <source>Compare with…</source>
        <translation>对比…</translation>
    </message>
    <message>
        <source>Show another model beside this one (e.g. the ONNX model of this om)</source>
        <translation>在旁边显示另一个模型（例如此 om 对应的 ONNX 模型）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the graph as shown as SVG, PNG or layout JSON</source>
        <translation>将当前显示的计算图保存为 SVG、PNG 或布局 JSON</translation>
    </message>
    <message>
        <source>Opening {0} cancelled</source>
        <translation>已取消打开 {0}</translation>
    </message>
    <message>
        <source>{0}: no op named {1}</source>
        <translation>{0}：没有名为 {1} 的算子</translation>
    </message>
    <message>
        <source>Export Graph</source>
        <translation>导出计算图</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Layout JSON (*.json)</source>
        <translation>布局 JSON (*.json)</translation>
    </message>
    <message>
        <source>Export the graph of {0}</source>
        <translation>导出 {0} 的计算图</translation>
    </message>
    <message>
        <source>Graph saved to {0}</source>
        <translation>计算图已保存到 {0}</translation>
    </message>
    <message>
        <source>Compare with Model</source>
        <translation>选择对比模型</translation>
    </message>
    <message>
        <source>Models ({0});;All files (*)</source>
        <translation>模型 ({0});;所有文件 (*)</translation>
    </message>
    <message>
        <source>Map the ops of {0}</source>
        <translation>映射 {0} 的算子</translation>
    </message>
    <message>
        <source>{0} — Graph</source>
        <translation>{0} — 计算图</translation>
    </message>
</context>
<context>
    <name>GraphGroup</name>
    <message>
        <source>scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>subgraph</source>
        <translation>子图</translation>
    </message>
    <message>
        <source>{0} · {1} nodes</source>
        <translation>{0} · {1} 个节点</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>MatMul</source>
        <translation>矩阵乘</translation>
    </message>
    <message>
        <source>Elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <source>Normalisation</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Data movement</source>
        <translation>数据搬移</translation>
    </message>
    <message>
        <source>Control / I/O</source>
        <translation>控制 / 输入输出</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Collapsed group</source>
        <translation>折叠的分组</translation>
    </message>
</context>
<context>
    <name>GraphLinks</name>
    <message>
        <source>Models ({0});;All files (*)</source>
        <translation>模型 ({0});;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose the Model of {0}</source>
        <translation>选择 {0} 所在的模型</translation>
    </message>
</context>
<context>
    <name>GraphPane</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Find op by name or type (Ctrl+F)</source>
        <translation>按名称或类型查找算子 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配 (Shift+Enter)</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配 (Enter)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole graph</source>
        <translation>显示整张图</translation>
    </message>
    <message>
        <source>Reading and laying out {0}…</source>
        <translation>正在读取并布局 {0}…</translation>
    </message>
    <message>
        <source>Model graph of {0}</source>
        <translation>{0} 的模型计算图</translation>
    </message>
    <message>
        <source>Model graph of {0}: {1}</source>
        <translation>{0} 的模型计算图：{1}</translation>
    </message>
    <message>
        <source>{0} ops, {1} shown</source>
        <translation>{0} 个算子，显示 {1} 个</translation>
    </message>
    <message>
        <source>No path between {0} and {1}</source>
        <translation>{0} 与 {1} 之间没有路径</translation>
    </message>
    <message>
        <source>Path: {0} ops</source>
        <translation>路径：{0} 个算子</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Original ops</source>
        <translation>原始算子</translation>
    </message>
    <message>
        <source>Input {0}</source>
        <translation>输入 {0}</translation>
    </message>
    <message>
        <source> (weight)</source>
        <translation>（权重）</translation>
    </message>
    <message>
        <source>Go to producer {0}</source>
        <translation>转到生产者 {0}</translation>
    </message>
    <message>
        <source>Output {0}</source>
        <translation>输出 {0}</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Go to consumer</source>
        <translation>转到消费者</translation>
    </message>
    <message>
        <source>Attribute {0}</source>
        <translation>属性 {0}</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>第 {0} 个，共 {1} 个</translation>
    </message>
    <message>
        <source>Expanding {0}…</source>
        <translation>正在展开 {0}…</translation>
    </message>
    <message>
        <source>Collapsing {0}…</source>
        <translation>正在折叠 {0}…</translation>
    </message>
    <message>
        <source>Layout of {0}</source>
        <translation>{0} 的布局</translation>
    </message>
    <message>
        <source>Expand Group</source>
        <translation>展开分组</translation>
    </message>
    <message>
        <source>Go to Producer</source>
        <translation>转到生产者</translation>
    </message>
    <message>
        <source>Go to Consumer</source>
        <translation>转到消费者</translation>
    </message>
    <message>
        <source>Path to Here</source>
        <translation>到此处的路径</translation>
    </message>
    <message>
        <source>Collapse Group “{0}”</source>
        <translation>折叠分组“{0}”</translation>
    </message>
    <message>
        <source>Copy Name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Fit to Window</source>
        <translation>适应窗口</translation>
    </message>
</context>
<context>
    <name>GraphStatus</name>
    <message>
        <source>Layering</source>
        <translation>布局分层</translation>
    </message>
    <message>
        <source>Ordering</source>
        <translation>排序以减少交叉</translation>
    </message>
    <message>
        <source>Placing</source>
        <translation>放置节点</translation>
    </message>
</context>
<context>
    <name>Heatmap</name>
    <message>
        <source>Destination rank</source>
        <translation>目的 Rank</translation>
    </message>
    <message>
        <source>Source rank</source>
        <translation>源 Rank</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
</context>
<context>
    <name>HostCombo</name>
    <message>
        <source>Demo host (simulated CANN)</source>
        <translation>演示主机（模拟 CANN）</translation>
    </message>
    <message>
        <source>{0} (simulated)</source>
        <translation>{0}（模拟）</translation>
    </message>
</context>
<context>
    <name>HostPanel</name>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Connect, find the CANN toolkit and list the NPUs</source>
        <translation>连接主机，查找 CANN 工具包并列出 NPU</translation>
    </message>
    <message>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <source>Checking {0}…</source>
        <translation>正在检查 {0}…</translation>
    </message>
    <message>
        <source>Check host {0}</source>
        <translation>检查主机 {0}</translation>
    </message>
    <message>
        <source>Connection failed: {0}</source>
        <translation>连接失败：{0}</translation>
    </message>
    <message>
        <source>No CANN toolkit found: {0}</source>
        <translation>未找到 CANN 工具包：{0}</translation>
    </message>
    <message>
        <source> (simulated)</source>
        <translation>（模拟）</translation>
    </message>
    <message>
        <source>CANN {0}{1}</source>
        <translation>CANN {0}{1}</translation>
    </message>
    <message>
        <source>{0}, SoC version ambiguous: {1}</source>
        <translation>{0}，SoC 版本不确定：{1}</translation>
    </message>
    <message>
        <source>NPU {0} chip {1} (device {2})</source>
        <translation>NPU {0} 芯片 {1}（设备 {2}）</translation>
    </message>
    <message>
        <source>Open a project to keep a device choice.</source>
        <translation>打开工程后才能保存设备选择。</translation>
    </message>
    <message>
        <source>Runs use ASCEND_RT_VISIBLE_DEVICES={0}</source>
        <translation>运行时使用 ASCEND_RT_VISIBLE_DEVICES={0}</translation>
    </message>
    <message>
        <source>No NPU ticked: runs see every NPU.</source>
        <translation>未勾选 NPU：运行时可见全部 NPU。</translation>
    </message>
</context>
<context>
    <name>ImportResultDialog</name>
    <message>
        <source>Import Result</source>
        <translation>导入结果</translation>
    </message>
    <message>
        <source>On a CANN machine</source>
        <translation>在 CANN 机器上</translation>
    </message>
    <message>
        <source>On this machine</source>
        <translation>在本机上</translation>
    </message>
    <message>
        <source>a PROF_* folder, its parent, or a folder of several</source>
        <translation>PROF_* 文件夹、其上级文件夹，或包含多个结果的文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>a local folder</source>
        <translation>本地文件夹</translation>
    </message>
    <message>
        <source>Only what the views need is copied (mindstudio_profiler_output, or summary and timeline, plus the info files); data never exported is exported on the host first. The import is listed with the project's profiling runs.</source>
        <translation>仅复制视图所需的内容（mindstudio_profiler_output，或 summary 和 timeline，以及 info 文件）；从未导出过的数据会先在主机上导出。导入的结果会与工程的性能分析运行记录列在一起。</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>Import into:</source>
        <translation>导入到：</translation>
    </message>
    <message>
        <source>Import into</source>
        <translation>导入到</translation>
    </message>
    <message>
        <source>Folder: enter the folder to import.</source>
        <translation>文件夹：请输入要导入的文件夹。</translation>
    </message>
    <message>
        <source>CANN machine: choose one (Ascend ▸ CANN Machines adds one).</source>
        <translation>CANN 机器：请选择一台（可通过 昇腾 ▸ CANN 机器 添加）。</translation>
    </message>
    <message>
        <source>Import into: open a project or choose a local folder.</source>
        <translation>导入到：请打开一个工程或选择一个本地文件夹。</translation>
    </message>
    <message>
        <source>Import {0}</source>
        <translation>导入 {0}</translation>
    </message>
</context>
<context>
    <name>InputsPage</name>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>The model's inputs and the shapes ATC compiles for. Use -1 for a dynamic axis.</source>
        <translation>模型的输入，以及 ATC 编译所用的 shape。动态轴请使用 -1。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Data type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Model shape</source>
        <translation>模型 shape</translation>
    </message>
    <message>
        <source>Shape (--input_shape)</source>
        <translation>Shape (--input_shape)</translation>
    </message>
    <message>
        <source>Add Input</source>
        <translation>添加输入</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Reset from Model</source>
        <translation>从模型重置</translation>
    </message>
    <message>
        <source>Fill the table again with the inputs read from the model</source>
        <translation>用从模型读取的输入重新填充表格</translation>
    </message>
    <message>
        <source>Show in Graph</source>
        <translation>在计算图中显示</translation>
    </message>
    <message>
        <source>Centre and select the selected input in the model's graph</source>
        <translation>在模型计算图中居中并选中所选输入</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>input names separated by ';' (fed as float16)</source>
        <translation>输入名称，以 ';' 分隔（以 float16 输入）</translation>
    </message>
    <message>
        <source>Input format:</source>
        <translation>输入格式：</translation>
    </message>
    <message>
        <source>FP16 inputs:</source>
        <translation>FP16 输入：</translation>
    </message>
    <message>
        <source>Dynamic shapes (choose one)</source>
        <translation>动态 shape（选择一种）</translation>
    </message>
    <message>
        <source>Dynamic batch sizes</source>
        <translation>动态 BatchSize</translation>
    </message>
    <message>
        <source>e.g. 1,2,4,8</source>
        <translation>例如 1,2,4,8</translation>
    </message>
    <message>
        <source>Dynamic image sizes</source>
        <translation>动态分辨率</translation>
    </message>
    <message>
        <source>height,width;… e.g. 224,224;448,448</source>
        <translation>高度,宽度;… 例如 224,224;448,448</translation>
    </message>
    <message>
        <source>Dynamic dims</source>
        <translation>动态维度</translation>
    </message>
    <message>
        <source>one value per -1 axis, gears separated by ';' e.g. 1,224;2,448 (needs input format ND)</source>
        <translation>每个 -1 轴一个值，各档位以 ';' 分隔，例如 1,224;2,448（需要输入格式为 ND）</translation>
    </message>
    <message>
        <source>The model is not read locally: enter its inputs by hand.</source>
        <translation>未在本地读取模型：请手动输入其输入信息。</translation>
    </message>
    <message>
        <source>{0}: {1} input(s), {2} output(s), {3} ops.</source>
        <translation>{0}：{1} 个输入，{2} 个输出，{3} 个算子。</translation>
    </message>
    <message>
        <source>Input(s) {0} keep -1 axes: ATC compiles them as dynamic shapes. Give numbers for a static model, or choose gears below.</source>
        <translation>输入 {0} 保留了 -1 轴：ATC 会将其编译为动态 shape。如需静态模型请填写具体数值，或在下方选择档位。</translation>
    </message>
</context>
<context>
    <name>LazyTab</name>
    <message>
        <source>Preparing…</source>
        <translation>正在准备……</translation>
    </message>
    <message>
        <source>Preparing this view was cancelled.</source>
        <translation>已取消准备此视图。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&lt;h2&gt;Ascend Workbench&lt;/h2&gt;&lt;p&gt;Open a project (File ▸ Open Project) or a profiling report (File ▸ Open Report…), or drop a report folder here.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Ascend Workbench&lt;/h2&gt;&lt;p&gt;打开一个工程（文件 ▸ 打开工程）或一份性能报告（文件 ▸ 打开报告…），或把报告文件夹拖放到这里。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <source>Project Explorer</source>
        <translation>工程资源管理器</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Not available yet: {0}</source>
        <translation>暂不可用：{0}</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>New Project…</source>
        <translation>新建工程…</translation>
    </message>
    <message>
        <source>Open Project…</source>
        <translation>打开工程…</translation>
    </message>
    <message>
        <source>Close Project</source>
        <translation>关闭工程</translation>
    </message>
    <message>
        <source>Open Report…</source>
        <translation>打开报告…</translation>
    </message>
    <message>
        <source>Recent Projects</source>
        <translation>最近的工程</translation>
    </message>
    <message>
        <source>Recent Reports</source>
        <translation>最近的报告</translation>
    </message>
    <message>
        <source>Exit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;Ascend</source>
        <translation>昇腾(&amp;A)</translation>
    </message>
    <message>
        <source>Model Converter…</source>
        <translation>模型转换…</translation>
    </message>
    <message>
        <source>Dump Configuration…</source>
        <translation>Dump 配置…</translation>
    </message>
    <message>
        <source>System Profiler</source>
        <translation>系统性能分析</translation>
    </message>
    <message>
        <source>New Profiling…</source>
        <translation>新建性能分析…</translation>
    </message>
    <message>
        <source>Merge Reports…</source>
        <translation>合并报告…</translation>
    </message>
    <message>
        <source>Timeline Color…</source>
        <translation>时间线颜色…</translation>
    </message>
    <message>
        <source>Baseline Comparison…</source>
        <translation>基线比较…</translation>
    </message>
    <message>
        <source>Model Accuracy Analyzer…</source>
        <translation>模型精度分析…</translation>
    </message>
    <message>
        <source>CANN Machines…</source>
        <translation>CANN 机器…</translation>
    </message>
    <message>
        <source>Deployment…</source>
        <translation>部署…</translation>
    </message>
    <message>
        <source>Run Configurations…</source>
        <translation>运行配置…</translation>
    </message>
    <message>
        <source>CANN Machine</source>
        <translation>CANN 机器</translation>
    </message>
    <message>
        <source>Open a report file, or a report folder (PROF_*, *_ascend_pt) selected in the list</source>
        <translation>打开报告文件，或在列表中选中的报告文件夹（PROF_*、*_ascend_pt）</translation>
    </message>
    <message>
        <source>Open Report Folder…</source>
        <translation>打开报告文件夹…</translation>
    </message>
    <message>
        <source>Open a report folder, or search any folder for the reports in it</source>
        <translation>打开报告文件夹，或在任意文件夹中查找其中的报告</translation>
    </message>
    <message>
        <source>Open Cluster…</source>
        <translation>打开集群…</translation>
    </message>
    <message>
        <source>Analyse a job's folder of ranks as a cluster, or open a cluster_analysis_output</source>
        <translation>将作业的各 Rank 目录作为集群分析，或打开 cluster_analysis_output</translation>
    </message>
    <message>
        <source>Open Model Graph…</source>
        <translation>打开模型计算图…</translation>
    </message>
    <message>
        <source>Show an ONNX model, an om JSON, an .om, a prototxt or a pb as a graph</source>
        <translation>以计算图显示 ONNX 模型、om JSON、.om、prototxt 或 pb</translation>
    </message>
    <message>
        <source>Import Result…</source>
        <translation>导入结果…</translation>
    </message>
    <message>
        <source>Profiling Runs…</source>
        <translation>性能分析运行记录…</translation>
    </message>
    <message>
        <source>Framework Trans</source>
        <translation>框架迁移</translation>
    </message>
    <message>
        <source>TensorFlow GPU2Ascend…</source>
        <translation>TensorFlow GPU2Ascend…</translation>
    </message>
    <message>
        <source>PyTorch GPU2Ascend…</source>
        <translation>PyTorch GPU2Ascend…</translation>
    </message>
    <message>
        <source>Open Migration Report…</source>
        <translation>打开迁移报告…</translation>
    </message>
    <message>
        <source>Open a project first: deployment maps its folders to a host</source>
        <translation>请先打开工程：部署会把工程目录映射到主机</translation>
    </message>
    <message>
        <source>Open a project first: run configurations belong to a project</source>
        <translation>请先打开工程：运行配置属于工程</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Reset Layout</source>
        <translation>重置布局</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>New Profiling</source>
        <translation>新建性能分析</translation>
    </message>
    <message>
        <source>Baseline Comparison</source>
        <translation>基线比较</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Open Log Folder</source>
        <translation>打开日志文件夹</translation>
    </message>
    <message>
        <source>About Ascend Workbench</source>
        <translation>关于 Ascend Workbench</translation>
    </message>
    <message>
        <source>Jobs Running</source>
        <translation>任务正在运行</translation>
    </message>
    <message>
        <source>These jobs are still running:
{0}

Cancel them and quit?</source>
        <translation>以下任务仍在运行：
{0}

取消这些任务并退出吗？</translation>
    </message>
    <message>
        <source>Could not save the window layout: {0}</source>
        <translation>无法保存窗口布局：{0}</translation>
    </message>
    <message>
        <source>saved window geometry was not usable; using the default</source>
        <translation>保存的窗口几何信息不可用；使用默认值</translation>
    </message>
    <message>
        <source>saved dock layout was not usable; using the default layout</source>
        <translation>保存的停靠布局不可用；使用默认布局</translation>
    </message>
    <message>
        <source>The language will change the next time Ascend Workbench starts.</source>
        <translation>语言将在下次启动 Ascend Workbench 时生效。</translation>
    </message>
    <message>
        <source>Ascend Workbench</source>
        <translation>Ascend Workbench</translation>
    </message>
    <message>
        <source>Opened project {0}</source>
        <translation>已打开工程 {0}</translation>
    </message>
    <message>
        <source>Project error</source>
        <translation>工程错误</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>打开工程</translation>
    </message>
    <message>
        <source>{0}

It was removed from Recent Projects.</source>
        <translation>{0}

已将其从最近的工程中移除。</translation>
    </message>
    <message>
        <source>{0}

Repair it? The damaged file is kept beside it as project.json.corrupt and a fresh project file is written.</source>
        <translation>{0}

要修复吗？损坏的文件会以 project.json.corrupt 保留在原处，并写入一个新的工程文件。</translation>
    </message>
    <message>
        <source>New Project</source>
        <translation>新建工程</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>{0}: no such file or folder</source>
        <translation>{0}：文件或文件夹不存在</translation>
    </message>
    <message>
        <source>Open Report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Profiling reports (*.json *.csv *.wbreport);;All files (*)</source>
        <translation>性能报告 (*.json *.csv *.wbreport);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Report Folder</source>
        <translation>打开报告文件夹</translation>
    </message>
    <message>
        <source>Open Cluster</source>
        <translation>打开集群</translation>
    </message>
    <message>
        <source>Open Model Graph</source>
        <translation>打开模型计算图</translation>
    </message>
    <message>
        <source>Searching {0} for reports…</source>
        <translation>正在 {0} 中查找报告…</translation>
    </message>
    <message>
        <source>Find reports in {0}</source>
        <translation>在 {0} 中查找报告</translation>
    </message>
    <message>
        <source>Search of {0} cancelled</source>
        <translation>已取消在 {0} 中的查找</translation>
    </message>
    <message>
        <source>{0}: no profiling report in this folder or up to {1} levels below ({2} folders searched). Looked for: {3}</source>
        <translation>{0}：该文件夹及其下 {1} 层内没有性能报告（已查找 {2} 个文件夹）。查找的是：{3}</translation>
    </message>
    <message>
        <source>Opening {0}</source>
        <translation>正在打开 {0}</translation>
    </message>
    <message>
        <source>{0} reports in {1}</source>
        <translation>{1} 中有 {0} 份报告</translation>
    </message>
    <message>
        <source>Cluster {0} ({1} ranks)</source>
        <translation>集群 {0}（{1} 个 rank）</translation>
    </message>
    <message>
        <source>Merged {0} ({1} reports)</source>
        <translation>合并 {0}（{1} 份报告）</translation>
    </message>
    <message>
        <source>Opening {0} was cancelled</source>
        <translation>已取消打开 {0}</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>{0} bytes</source>
        <translation>{0} 字节</translation>
    </message>
    <message>
        <source>Open Migration Report</source>
        <translation>打开迁移报告</translation>
    </message>
    <message>
        <source>{0} vs {1}</source>
        <translation>{0} vs {1}</translation>
    </message>
    <message>
        <source>Find next in Output</source>
        <translation>在输出中查找下一个</translation>
    </message>
    <message>
        <source>Find previous in Output</source>
        <translation>在输出中查找上一个</translation>
    </message>
</context>
<context>
    <name>MemoryPane</name>
    <message>
        <source>The memory_record component to draw</source>
        <translation>要绘制的 memory_record 组件</translation>
    </message>
    <message>
        <source>All components</source>
        <translation>全部组件</translation>
    </message>
    <message>
        <source>Go to Peak</source>
        <translation>转到峰值</translation>
    </message>
    <message>
        <source>Put the cursor on the highest curve's peak and list what is alive there</source>
        <translation>把游标放到最高曲线的峰值处，并列出此时仍占用内存的算子</translation>
    </message>
    <message>
        <source>Component:</source>
        <translation>组件：</translation>
    </message>
    <message>
        <source>Memory (MB)</source>
        <translation>内存 (MB)</translation>
    </message>
    <message>
        <source>Drag the cursor: the operators alive at that time are listed</source>
        <translation>拖动游标：列出该时刻仍占用内存的算子</translation>
    </message>
    <message>
        <source>The npu_module_mem module to draw</source>
        <translation>要绘制的 npu_module_mem 模块</translation>
    </message>
    <message>
        <source>Modules in use ({0})</source>
        <translation>占用内存的模块（{0}）</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>NPU module memory:</source>
        <translation>NPU 模块内存：</translation>
    </message>
    <message>
        <source>Operator Memory</source>
        <translation>算子内存</translation>
    </message>
    <message>
        <source>Filter by operator name</source>
        <translation>按算子名称筛选</translation>
    </message>
    <message>
        <source>Alive</source>
        <translation>占用中</translation>
    </message>
    <message>
        <source>Show on Timeline</source>
        <translation>在时间线上显示</translation>
    </message>
    <message>
        <source>Go to the Timeline with the clicked allocation's operator selected</source>
        <translation>转到时间线并选中所单击分配的算子</translation>
    </message>
    <message>
        <source>This report has no memory data.</source>
        <translation>此报告没有内存数据。</translation>
    </message>
    <message>
        <source>operator_memory: {0} allocations. Click one to mark it on the curve.</source>
        <translation>operator_memory：{0} 次分配。单击一行可在曲线上标出该分配。</translation>
    </message>
    <message>
        <source>Curves of more than {0} points are drawn from {1} points each; every peak is kept.</source>
        <translation>超过 {0} 个点的曲线按每条 {1} 个点绘制；所有峰值均保留。</translation>
    </message>
    <message>
        <source>Peak {0}: {1} MB ({2})</source>
        <translation>{0}峰值：{1} MB（{2}）</translation>
    </message>
    <message>
        <source>At the peak of {0} {1} ({2} MB at {3})</source>
        <translation>在 {0} {1}的峰值处（{2} MB，{3}）</translation>
    </message>
    <message>
        <source>{0} ms</source>
        <translation>{0} ms</translation>
    </message>
    <message>
        <source>At the cursor ({0})</source>
        <translation>在游标处（{0}）</translation>
    </message>
    <message>
        <source>{0} · alive: {1} · {2} MB</source>
        <translation>{0} · 占用中：{1} · {2} MB</translation>
    </message>
    <message>
        <source>Cursor {0}</source>
        <translation>游标 {0}</translation>
    </message>
    <message>
        <source>never (in this profile)</source>
        <translation>未释放（本次采集内）</translation>
    </message>
    <message>
        <source>{0}: {1} KB allocated at {2}, released at {3}</source>
        <translation>{0}：{1} KB，分配于 {2}，释放于 {3}</translation>
    </message>
</context>
<context>
    <name>MemoryView</name>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>活跃</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size (KB)</source>
        <translation>大小 (KB)</translation>
    </message>
    <message>
        <source>Allocated at (ms)</source>
        <translation>分配时间 (ms)</translation>
    </message>
    <message>
        <source>Released at (ms)</source>
        <translation>释放时间 (ms)</translation>
    </message>
    <message>
        <source>Duration (µs)</source>
        <translation>持续时间 (µs)</translation>
    </message>
    <message>
        <source>Active Duration (µs)</source>
        <translation>活跃持续时间 (µs)</translation>
    </message>
    <message>
        <source>Allocated at Allocation (MB)</source>
        <translation>分配时已分配 (MB)</translation>
    </message>
    <message>
        <source>Reserved at Allocation (MB)</source>
        <translation>分配时已预留 (MB)</translation>
    </message>
    <message>
        <source>Allocated at Release (MB)</source>
        <translation>释放时已分配 (MB)</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
</context>
<context>
    <name>MergeReportsDialog</name>
    <message>
        <source>Merge Reports</source>
        <translation>合并报告</translation>
    </message>
    <message>
        <source>Replace an existing output of that name</source>
        <translation>替换已存在的同名输出</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Input directory:</source>
        <translation>输入目录：</translation>
    </message>
    <message>
        <source>Output directory:</source>
        <translation>输出目录：</translation>
    </message>
    <message>
        <source>Output name:</source>
        <translation>输出名称：</translation>
    </message>
    <message>
        <source>Every PROF_* folder of the input directory (up to two levels down) is combined: tables per device, statistics recomputed, timelines merged. The result is saved as &lt;output name&gt;.wbreport and opened.</source>
        <translation>输入目录中的每个 PROF_* 文件夹（最多向下两级）都会被合并：按设备汇总表格、重新计算统计数据、合并时间线。结果保存为 &lt;输出名称&gt;.wbreport 并自动打开。</translation>
    </message>
    <message>
        <source>Input directory</source>
        <translation>输入目录</translation>
    </message>
    <message>
        <source>Output directory</source>
        <translation>输出目录</translation>
    </message>
    <message>
        <source>{0} report(s) to merge</source>
        <translation>待合并的报告：{0} 份</translation>
    </message>
    <message>
        <source>Output name</source>
        <translation>输出名称</translation>
    </message>
    <message>
        <source>{0}: required.</source>
        <translation>{0}：必填。</translation>
    </message>
    <message>
        <source>Merge reports into {0}</source>
        <translation>将报告合并到 {0}</translation>
    </message>
</context>
<context>
    <name>Migration</name>
    <message>
        <source>Supported</source>
        <translation>支持</translation>
    </message>
    <message>
        <source>Supported after migration by the tool</source>
        <translation>工具迁移后支持</translation>
    </message>
    <message>
        <source>Supported after manual migration</source>
        <translation>手工迁移后支持</translation>
    </message>
    <message>
        <source>Analysing</source>
        <translation>分析中</translation>
    </message>
    <message>
        <source>Unsupported</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>Deprecated</source>
        <translation>废弃</translation>
    </message>
    <message>
        <source>NA</source>
        <translation>NA</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Precision advice</source>
        <translation>精度建议</translation>
    </message>
    <message>
        <source>Performance advice</source>
        <translation>性能建议</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>TensorFlow 1.x (convert_tf2npu, npu_bridge)</source>
        <translation>TensorFlow 1.x（convert_tf2npu，npu_bridge）</translation>
    </message>
    <message>
        <source>TensorFlow 2.x (convert_tf2npu, npu_device)</source>
        <translation>TensorFlow 2.x（convert_tf2npu，npu_device）</translation>
    </message>
    <message>
        <source>PyTorch (msFmkTransplt)</source>
        <translation>PyTorch（msFmkTransplt）</translation>
    </message>
</context>
<context>
    <name>MigrationCheck</name>
    <message>
        <source>--input: the folder of the GPU project to migrate is missing</source>
        <translation>--input：缺少要迁移的 GPU 工程文件夹</translation>
    </message>
    <message>
        <source>--out: the output folder is missing</source>
        <translation>--out：缺少输出文件夹</translation>
    </message>
    <message>
        <source>--out {0}: must not be inside the input folder {1} (the tool refuses it)</source>
        <translation>--out {0}：不能位于输入文件夹 {1} 内（工具会拒绝）</translation>
    </message>
    <message>
        <source>--main {0}: expected a Python file (.py)</source>
        <translation>--main {0}：应为 Python 文件（.py）</translation>
    </message>
    <message>
        <source>--main {0}: expected a file inside the input folder {1}</source>
        <translation>--main {0}：应为输入文件夹 {1} 内的文件</translation>
    </message>
    <message>
        <source>--main {0}: no such file in {1}</source>
        <translation>--main {0}：{1} 中没有此文件</translation>
    </message>
    <message>
        <source>--pytorch-version {0}: expected one of {1}</source>
        <translation>--pytorch-version {0}：应为 {1} 之一</translation>
    </message>
    <message>
        <source>--distributed: needs --main, the entry script of the training</source>
        <translation>--distributed：需要 --main，即训练的入口脚本</translation>
    </message>
    <message>
        <source>--input {0}: expected the folder of a GPU project (it is not a folder)</source>
        <translation>--input {0}：应为 GPU 工程的文件夹（它不是文件夹）</translation>
    </message>
    <message>
        <source>--input {0}: no Python (.py) file in this folder: nothing to migrate</source>
        <translation>--input {0}：此文件夹中没有 Python（.py）文件，无可迁移内容</translation>
    </message>
    <message>
        <source>{0}: already holds files; choose another --out or pass --force</source>
        <translation>{0}：已包含文件；请选择其他 --out 或使用 --force</translation>
    </message>
</context>
<context>
    <name>MigrationProjectPage</name>
    <message>
        <source>GPU project</source>
        <translation>GPU 工程</translation>
    </message>
    <message>
        <source>The migration tool copies the project, changes the copy for Ascend and reports what it did.</source>
        <translation>迁移工具复制工程，将副本修改为适配昇腾，并报告所做的修改。</translation>
    </message>
    <message>
        <source>The folder of the GPU project on this computer</source>
        <translation>本机上 GPU 工程的文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>e.g. train.py (relative to the project folder)</source>
        <translation>例如 train.py（相对于工程文件夹）</translation>
    </message>
    <message>
        <source>Distributed: make a multi-device NPU script (needs the main script)</source>
        <translation>分布式：生成多卡 NPU 脚本（需要主脚本）</translation>
    </message>
    <message>
        <source>Default: &lt;project&gt;_npu beside the project folder</source>
        <translation>默认：工程文件夹旁的 &lt;工程&gt;_npu</translation>
    </message>
    <message>
        <source>Write into an output folder that already holds files</source>
        <translation>写入已包含文件的输出文件夹</translation>
    </message>
    <message>
        <source>Framework:</source>
        <translation>框架：</translation>
    </message>
    <message>
        <source>Project folder:</source>
        <translation>工程文件夹：</translation>
    </message>
    <message>
        <source>Main script:</source>
        <translation>主脚本：</translation>
    </message>
    <message>
        <source>PyTorch version:</source>
        <translation>PyTorch 版本：</translation>
    </message>
    <message>
        <source>Model variable:</source>
        <translation>模型变量：</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>输出文件夹：</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>Command line on the CANN machine:</source>
        <translation>CANN 机器上的命令行：</translation>
    </message>
    <message>
        <source>GPU project folder</source>
        <translation>GPU 工程文件夹</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <source>msFmkTransplt needs the main script only for a distributed migration.</source>
        <translation>msFmkTransplt 仅在分布式迁移时需要主脚本。</translation>
    </message>
    <message>
        <source>convert_tf2npu's -m: the script that starts the training (optional).</source>
        <translation>convert_tf2npu 的 -m：启动训练的脚本（可选）。</translation>
    </message>
    <message>
        <source>Simulated: the demo host runs a simulated CANN toolkit on this computer.</source>
        <translation>模拟：演示主机在本机上运行模拟的 CANN 工具包。</translation>
    </message>
</context>
<context>
    <name>MigrationReportDocument</name>
    <message>
        <source>Reading {0}…</source>
        <translation>正在读取 {0}…</translation>
    </message>
    <message>
        <source>Read migration report {0}</source>
        <translation>读取迁移报告 {0}</translation>
    </message>
    <message>
        <source>Migration Report</source>
        <translation>迁移报告</translation>
    </message>
    <message>
        <source>Open Migrated Project</source>
        <translation>打开迁移后的工程</translation>
    </message>
    <message>
        <source>Choose Input Folder…</source>
        <translation>选择输入文件夹…</translation>
    </message>
    <message>
        <source>The GPU project the report is about, for the diff</source>
        <translation>报告所对应的 GPU 工程，用于差异对比</translation>
    </message>
    <message>
        <source>APIs ({0})</source>
        <translation>API（{0}）</translation>
    </message>
    <message>
        <source>Changes ({0})</source>
        <translation>修改（{0}）</translation>
    </message>
    <message>
        <source>Notes ({0})</source>
        <translation>说明（{0}）</translation>
    </message>
    <message>
        <source>{0} report: {1}</source>
        <translation>{0} 报告：{1}</translation>
    </message>
    <message>
        <source>Input project: {0}</source>
        <translation>输入工程：{0}</translation>
    </message>
    <message>
        <source>Migrated project: {0}</source>
        <translation>迁移后的工程：{0}</translation>
    </message>
    <message>
        <source>The tool's log says the migration failed.</source>
        <translation>工具日志显示迁移失败。</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>APIs analysed</source>
        <translation>已分析的 API</translation>
    </message>
    <message>
        <source>APIs without duplicates</source>
        <translation>去重后的 API</translation>
    </message>
    <message>
        <source>APIs</source>
        <translation>API 数</translation>
    </message>
    <message>
        <source>Support of the APIs</source>
        <translation>API 支持度</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>支持度</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>迁移建议</translation>
    </message>
    <message>
        <source>All ({0})</source>
        <translation>全部（{0}）</translation>
    </message>
    <message>
        <source>Support:</source>
        <translation>支持度：</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>End line</source>
        <translation>结束行</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>(input folder not known: Choose Input Folder…)</source>
        <translation>（输入文件夹未知：请选择输入文件夹…）</translation>
    </message>
    <message>
        <source>(migrated project not found)</source>
        <translation>（未找到迁移后的工程）</translation>
    </message>
    <message>
        <source>input line {0}</source>
        <translation>输入第 {0} 行</translation>
    </message>
    <message>
        <source>migrated line {0}</source>
        <translation>迁移后第 {0} 行</translation>
    </message>
    <message>
        <source>Choose the GPU project folder</source>
        <translation>选择 GPU 工程文件夹</translation>
    </message>
    <message>
        <source>Created the project {0}: open it with File ▸ Open Project</source>
        <translation>已创建工程 {0}：请通过 文件 ▸ 打开工程 打开</translation>
    </message>
    <message>
        <source>Migration {0}</source>
        <translation>迁移 {0}</translation>
    </message>
</context>
<context>
    <name>MigrationRunPage</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run uploads the project, runs the tool on the CANN machine and downloads its result.</source>
        <translation>运行会上传工程，在 CANN 机器上运行工具并下载结果。</translation>
    </message>
    <message>
        <source>Command line on the CANN machine:</source>
        <translation>CANN 机器上的命令行：</translation>
    </message>
    <message>
        <source>{0}
Project: {1}
Output: {2}
CANN machine: {3}</source>
        <translation>{0}
工程：{1}
输出：{2}
CANN 机器：{3}</translation>
    </message>
</context>
<context>
    <name>MigrationStatus</name>
    <message>
        <source>Uploading {0} to {1} on {2}</source>
        <translation>正在将 {0} 上传到 {2} 上的 {1}</translation>
    </message>
    <message>
        <source>Running {0} on {1}</source>
        <translation>正在 {1} 上运行 {0}</translation>
    </message>
    <message>
        <source>Downloading the migrated project and the reports from {0}</source>
        <translation>正在从 {0} 下载迁移后的工程和报告</translation>
    </message>
    <message>
        <source>Migration finished</source>
        <translation>迁移完成</translation>
    </message>
    <message>
        <source>Migration failed</source>
        <translation>迁移失败</translation>
    </message>
</context>
<context>
    <name>MigrationWizard</name>
    <message>
        <source>GPU → Ascend Migration</source>
        <translation>GPU → 昇腾迁移</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Output folder {0}: already holds files; choose another folder or tick “Write into an output folder that already holds files”</source>
        <translation>输出文件夹 {0}：已包含文件；请选择其他文件夹，或勾选“写入已包含文件的输出文件夹”</translation>
    </message>
    <message>
        <source>Output folder {0}: it is a file; expected a folder</source>
        <translation>输出文件夹 {0}：这是一个文件，应为文件夹</translation>
    </message>
    <message>
        <source>CANN machine: none is configured (Ascend ▸ CANN Machines adds one)</source>
        <translation>CANN 机器：尚未配置（通过 昇腾 ▸ CANN 机器 添加）</translation>
    </message>
    <message>
        <source>Cannot use the CANN machine {0}: {1}</source>
        <translation>无法使用 CANN 机器 {0}：{1}</translation>
    </message>
    <message>
        <source>Migrate {0}</source>
        <translation>迁移 {0}</translation>
    </message>
    <message>
        <source>Migrated: {0}</source>
        <translation>已迁移：{0}</translation>
    </message>
    <message>
        <source>The migration failed: {0}</source>
        <translation>迁移失败：{0}</translation>
    </message>
    <message>
        <source>Stopped: the tool's process group on the CANN machine was killed.</source>
        <translation>已停止：CANN 机器上工具的进程组已被终止。</translation>
    </message>
</context>
<context>
    <name>Minimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Choose the CANN machine, the model to convert and the target SoC.</source>
        <translation>选择 CANN 机器、要转换的模型和目标 SoC。</translation>
    </message>
    <message>
        <source>Local file (uploaded to the host)</source>
        <translation>本地文件（上传到主机）</translation>
    </message>
    <message>
        <source>Path on the host</source>
        <translation>主机上的路径</translation>
    </message>
    <message>
        <source>e.g. resnet50.onnx, model.pb, deploy.prototxt, net.air</source>
        <translation>例如 resnet50.onnx、model.pb、deploy.prototxt、net.air</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>From the file name</source>
        <translation>根据文件名判断</translation>
    </message>
    <message>
        <source>Caffe weights (.caffemodel)</source>
        <translation>Caffe 权重 (.caffemodel)</translation>
    </message>
    <message>
        <source>the project folder</source>
        <translation>工程文件夹</translation>
    </message>
    <message>
        <source>e.g. Ascend310P3</source>
        <translation>例如 Ascend310P3</translation>
    </message>
    <message>
        <source>Detect</source>
        <translation>检测</translation>
    </message>
    <message>
        <source>Read the NPU type with npu-smi info on the chosen machine</source>
        <translation>在所选机器上通过 npu-smi info 读取 NPU 型号</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>Model location:</source>
        <translation>模型位置：</translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation>模型文件：</translation>
    </message>
    <message>
        <source>Framework:</source>
        <translation>框架：</translation>
    </message>
    <message>
        <source>Weight file:</source>
        <translation>权重文件：</translation>
    </message>
    <message>
        <source>Output name:</source>
        <translation>输出名称：</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>输出目录：</translation>
    </message>
    <message>
        <source>SoC version:</source>
        <translation>SoC 版本：</translation>
    </message>
    <message>
        <source>{0} is not a configured CANN machine (Ascend ▸ CANN Machines adds it); choose one here.</source>
        <translation>{0} 不是已配置的 CANN 机器（可通过 昇腾 ▸ CANN 机器 添加）；请在此选择一台。</translation>
    </message>
    <message>
        <source>Simulated: the demo host runs a simulated CANN toolkit on this computer, for trying the workbench. Its .om files do not run on an NPU.</source>
        <translation>模拟：演示主机在本机上运行模拟的 CANN 工具包，用于试用工作台。它生成的 .om 文件无法在 NPU 上运行。</translation>
    </message>
    <message>
        <source>npu-smi on {0} reports {1} (Chip Name and NPU Name of npu-smi info -t board).</source>
        <translation>{0} 上的 npu-smi 报告 {1}（来自 npu-smi info -t board 的 Chip Name 与 NPU Name）。</translation>
    </message>
    <message>
        <source>npu-smi on {0} reports {1}.</source>
        <translation>{0} 上的 npu-smi 报告为 {1}。</translation>
    </message>
    <message>
        <source>npu-smi on {0} reports {1}, which does not tell the exact SoC version: choose the one of this machine ({2}).</source>
        <translation>{0} 上的 npu-smi 报告 {1}，无法据此确定确切的 SoC 版本：请选择这台机器的 SoC 版本（{2}）。</translation>
    </message>
    <message>
        <source>npu-smi on {0} found no NPU; choose the SoC from the list.</source>
        <translation>{0} 上的 npu-smi 未发现 NPU；请从列表中选择 SoC。</translation>
    </message>
    <message>
        <source>Could not read the NPU type: {0}</source>
        <translation>无法读取 NPU 型号：{0}</translation>
    </message>
    <message>
        <source>detected: {0} (--framework={1})</source>
        <translation>已检测：{0}（--framework={1}）</translation>
    </message>
    <message>
        <source>not detected from the file name</source>
        <translation>无法从文件名检测</translation>
    </message>
    <message>
        <source>the model's file name</source>
        <translation>模型的文件名</translation>
    </message>
    <message>
        <source>Model File</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>Models ({0});;All files (*)</source>
        <translation>模型 ({0});;所有文件 (*)</translation>
    </message>
    <message>
        <source>Weight File</source>
        <translation>权重文件</translation>
    </message>
    <message>
        <source>Caffe weights (*.caffemodel);;All files (*)</source>
        <translation>Caffe 权重 (*.caffemodel);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Output Folder</source>
        <translation>输出目录</translation>
    </message>
</context>
<context>
    <name>ModelStructureView</name>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; — {1} ops, {2} op types&lt;br&gt;&lt;small&gt;{3}&lt;/small&gt;</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; — {1} 个算子，{2} 种算子类型&lt;br&gt;&lt;small&gt;{3}&lt;/small&gt;</translation>
    </message>
    <message>
        <source>All op types</source>
        <translation>所有算子类型</translation>
    </message>
    <message>
        <source>Search ops by name, type, input or shape</source>
        <translation>按名称、类型、输入或 shape 搜索算子</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output shapes</source>
        <translation>输出 shape</translation>
    </message>
    <message>
        <source>Output dtypes</source>
        <translation>输出数据类型</translation>
    </message>
    <message>
        <source>Output formats</source>
        <translation>输出格式</translation>
    </message>
    <message>
        <source>atc --mode=1 on {0}</source>
        <translation>在 {0} 上执行 atc --mode=1</translation>
    </message>
</context>
<context>
    <name>NewProfilingWizard</name>
    <message>
        <source>New Profiling</source>
        <translation>新建性能分析</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Choose a CANN machine (Ascend ▸ CANN Machines adds one).</source>
        <translation>请选择一台 CANN 机器（可通过 昇腾 ▸ CANN 机器 添加）。</translation>
    </message>
    <message>
        <source>Looking for the CANN toolkit and the NPUs…</source>
        <translation>正在查找 CANN 工具包和 NPU…</translation>
    </message>
    <message>
        <source>Check host {0}</source>
        <translation>检查主机 {0}</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>CANN {0}</source>
        <translation>CANN {0}</translation>
    </message>
    <message>
        <source>(version unknown)</source>
        <translation>（版本未知）</translation>
    </message>
    <message>
        <source>simulated toolkit</source>
        <translation>模拟工具包</translation>
    </message>
    <message>
        <source>NPUs: {0}</source>
        <translation>NPU：{0}</translation>
    </message>
    <message>
        <source>No CANN toolkit found.</source>
        <translation>未找到 CANN 工具包。</translation>
    </message>
    <message>
        <source>Could not check the host: {0}</source>
        <translation>无法检查主机：{0}</translation>
    </message>
    <message>
        <source>Deployment mappings belong to a workbench project; this app project is not one.</source>
        <translation>部署映射属于工作台工程；此应用工程不是工作台工程。</translation>
    </message>
    <message>
        <source>Check profiling options</source>
        <translation>检查性能分析选项</translation>
    </message>
    <message>
        <source>Profile {0} on {1}</source>
        <translation>在 {1} 上对 {0} 进行性能分析</translation>
    </message>
</context>
<context>
    <name>NewProjectDialog</name>
    <message>
        <source>New Project</source>
        <translation>新建工程</translation>
    </message>
    <message>
        <source>e.g. resnet50_inference</source>
        <translation>例如 resnet50_inference</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Project name:</source>
        <translation>工程名称：</translation>
    </message>
    <message>
        <source>Location:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>Project folder:</source>
        <translation>工程目录：</translation>
    </message>
    <message>
        <source>Project type:</source>
        <translation>工程类型：</translation>
    </message>
    <message>
        <source>Project Location</source>
        <translation>工程位置</translation>
    </message>
    <message>
        <source>The folder exists: its files are kept and the type was detected from its contents ({0}).</source>
        <translation>该文件夹已存在：其中的文件会保留，工程类型根据内容检测为（{0}）。</translation>
    </message>
</context>
<context>
    <name>OpTree</name>
    <message>
        <source>Search ops by name or type</source>
        <translation>按名称或类型搜索算子</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Output shape</source>
        <translation>输出 shape</translation>
    </message>
    <message>
        <source>Enable Dump</source>
        <translation>启用 Dump</translation>
    </message>
    <message>
        <source>Disable Dump</source>
        <translation>禁用 Dump</translation>
    </message>
    <message>
        <source>graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>{0}: {1} ops have no kernel and are not dumped</source>
        <translation>{0}：{1} 个算子没有 kernel，不会被 Dump</translation>
    </message>
    <message>
        <source>{0} of {1} ops</source>
        <translation>{0}/{1} 个算子</translation>
    </message>
    <message>
        <source>Choose Dump Option "Several" to pick ops</source>
        <translation>将 Dump 选项设为“部分”即可选择算子</translation>
    </message>
    <message>
        <source>Show in Graph</source>
        <translation>在计算图中显示</translation>
    </message>
    <message>
        <source>Centre and select {0} in the model graph</source>
        <translation>在模型计算图中居中并选中 {0}</translation>
    </message>
</context>
<context>
    <name>OptionsPage</name>
    <message>
        <source>Profiling Options</source>
        <translation>性能分析选项</translation>
    </message>
    <message>
        <source>What msprof collects. The defaults are msprof's; the command line below follows every change.</source>
        <translation>msprof 采集的内容。默认值与 msprof 一致；下方的命令行会随每次修改同步更新。</translation>
    </message>
    <message>
        <source>AI Core profiling</source>
        <translation>AI Core 性能分析</translation>
    </message>
    <message>
        <source> Hz</source>
        <translation> Hz</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>Metrics:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>Sampling frequency:</source>
        <translation>采样频率：</translation>
    </message>
    <message>
        <source>Tasks and API traces</source>
        <translation>任务与 API 追踪</translation>
    </message>
    <message>
        <source>AscendCL API</source>
        <translation>AscendCL API</translation>
    </message>
    <message>
        <source>Runtime API</source>
        <translation>Runtime API</translation>
    </message>
    <message>
        <source>OS Runtime API (needs perf and ltrace on the host)</source>
        <translation>OS Runtime API（需要主机上安装 perf 和 ltrace）</translation>
    </message>
    <message>
        <source>Graph Engine</source>
        <translation>Graph Engine</translation>
    </message>
    <message>
        <source>AI CPU</source>
        <translation>AI CPU</translation>
    </message>
    <message>
        <source>MsprofTX (application markers)</source>
        <translation>MsprofTX（应用打点）</translation>
    </message>
    <message>
        <source>HCCL (collective communication)</source>
        <translation>HCCL（集合通信）</translation>
    </message>
    <message>
        <source>Task time:</source>
        <translation>任务时间：</translation>
    </message>
    <message>
        <source>System sampling</source>
        <translation>系统采样</translation>
    </message>
    <message>
        <source>Device memory / DDR</source>
        <translation>设备内存 / DDR</translation>
    </message>
    <message>
        <source>Host disk sampling needs iotop on the host</source>
        <translation>主机磁盘采样需要主机上安装 iotop</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>msprof command:</source>
        <translation>msprof 命令：</translation>
    </message>
    <message>
        <source>Metric groups of {0}</source>
        <translation>{0} 的指标组</translation>
    </message>
    <message>
        <source>Chip not known yet: only the groups every chip has are offered</source>
        <translation>芯片型号尚未确定：仅提供所有芯片都支持的指标组</translation>
    </message>
</context>
<context>
    <name>OutNodePicker</name>
    <message>
        <source>Output Nodes</source>
        <translation>输出节点</translation>
    </message>
    <message>
        <source>Search nodes</source>
        <translation>搜索节点</translation>
    </message>
    <message>
        <source>Show in Graph</source>
        <translation>在计算图中显示</translation>
    </message>
    <message>
        <source>Centre and select the current entry's node in the model's graph</source>
        <translation>在模型计算图中居中并选中当前条目的节点</translation>
    </message>
</context>
<context>
    <name>OutputPanel</name>
    <message>
        <source>Search output</source>
        <translation>搜索输出</translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配 (Shift+F3)</translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation>下一个匹配 (F3)</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save this job's output to a file</source>
        <translation>将此任务的输出保存到文件</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>已完成。</translation>
    </message>
    <message>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>{0} matches</source>
        <translation>{0} 处匹配</translation>
    </message>
    <message>
        <source>Save Output</source>
        <translation>保存输出</translation>
    </message>
    <message>
        <source>Log files (*.log *.txt)</source>
        <translation>日志文件 (*.log *.txt)</translation>
    </message>
    <message>
        <source>Cannot write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
</context>
<context>
    <name>PathPicker</name>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Choose a Report</source>
        <translation>选择报告</translation>
    </message>
</context>
<context>
    <name>PathRow</name>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
</context>
<context>
    <name>Profiler</name>
    <message>
        <source>Remote</source>
        <translation>远端</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>本地</translation>
    </message>
    <message>
        <source>Binary</source>
        <translation>二进制</translation>
    </message>
    <message>
        <source>Python script</source>
        <translation>Python 脚本</translation>
    </message>
    <message>
        <source>Shell script</source>
        <translation>Shell 脚本</translation>
    </message>
    <message>
        <source>Task-based</source>
        <translation>Task-based</translation>
    </message>
    <message>
        <source>Sample-based</source>
        <translation>Sample-based</translation>
    </message>
    <message>
        <source>Level 0 (launch and execution time only)</source>
        <translation>级别 0（仅下发与执行时间）</translation>
    </message>
    <message>
        <source>Level 1 (adds op information)</source>
        <translation>级别 1（增加算子信息）</translation>
    </message>
    <message>
        <source>Level 2 (adds op attributes)</source>
        <translation>级别 2（增加算子属性）</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>ProfilerTaskDialog</name>
    <message>
        <source>Working… (the Output dock shows the progress)</source>
        <translation>处理中…（进度显示在“输出”窗口中）</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>ProfilingRuns</name>
    <message>
        <source>AI Core {0} {1}</source>
        <translation>AI Core {0} {1}</translation>
    </message>
    <message>
        <source>task time {0}</source>
        <translation>任务时间 {0}</translation>
    </message>
    <message>
        <source>AscendCL</source>
        <translation>AscendCL</translation>
    </message>
    <message>
        <source>Runtime API</source>
        <translation>Runtime API</translation>
    </message>
    <message>
        <source>OS Runtime API</source>
        <translation>OS Runtime API</translation>
    </message>
    <message>
        <source>Graph Engine</source>
        <translation>Graph Engine</translation>
    </message>
    <message>
        <source>AI CPU</source>
        <translation>AI CPU</translation>
    </message>
    <message>
        <source>MsprofTX</source>
        <translation>MsprofTX</translation>
    </message>
    <message>
        <source>DDR</source>
        <translation>DDR</translation>
    </message>
    <message>
        <source>HCCL</source>
        <translation>HCCL</translation>
    </message>
    <message>
        <source>host {0}</source>
        <translation>主机 {0}</translation>
    </message>
</context>
<context>
    <name>ProfilingRunsDialog</name>
    <message>
        <source>Profiling Runs</source>
        <translation>性能分析运行记录</translation>
    </message>
</context>
<context>
    <name>ProfilingRunsPanel</name>
    <message>
        <source>Profiling runs</source>
        <translation>性能分析运行记录</translation>
    </message>
    <message>
        <source>Re-open</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <source>Re-run</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <source>Profile again with the same options (a new run is added)</source>
        <translation>使用相同选项再次进行性能分析（会新增一条运行记录）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Also delete the data on the host</source>
        <translation>同时删除主机上的数据</translation>
    </message>
    <message>
        <source>New Profiling…</source>
        <translation>新建性能分析…</translation>
    </message>
    <message>
        <source>Import Result…</source>
        <translation>导入结果…</translation>
    </message>
    <message>
        <source>Open a project to see its profiling runs.</source>
        <translation>打开一个工程以查看其性能分析运行记录。</translation>
    </message>
    <message>
        <source>Profiling runs of {0}: {1}</source>
        <translation>{0} 的性能分析运行记录：{1}</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>CANN</source>
        <translation>CANN</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>collected</source>
        <translation>已采集</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Toolkit</source>
        <translation>工具包</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>On the host</source>
        <translation>主机上</translation>
    </message>
    <message>
        <source>Local folder</source>
        <translation>本地文件夹</translation>
    </message>
    <message>
        <source>Profiling run {0}</source>
        <translation>性能分析运行 {0}</translation>
    </message>
    <message>
        <source>Select a run first.</source>
        <translation>请先选择一条运行记录。</translation>
    </message>
    <message>
        <source>{0}: the run's data is gone (deleted outside the workbench?)</source>
        <translation>{0}：该运行的数据已不存在（是否在工作台之外被删除？）</translation>
    </message>
    <message>
        <source>An imported result has no options to re-run; import it again instead.</source>
        <translation>导入的结果没有可用于重新运行的选项；请重新导入。</translation>
    </message>
    <message>
        <source>Re-run profiling {0} on {1}</source>
        <translation>在 {1} 上重新运行性能分析 {0}</translation>
    </message>
    <message>
        <source>Delete run {0} here and its data on {1} ({2})?</source>
        <translation>删除此处的运行记录 {0} 及其在 {1} 上的数据（{2}）？</translation>
    </message>
    <message>
        <source>Delete run {0}? Its local data is removed; the data on the host is kept.</source>
        <translation>删除运行记录 {0}？其本地数据将被删除；主机上的数据会保留。</translation>
    </message>
    <message>
        <source>Delete Profiling Run</source>
        <translation>删除性能分析运行记录</translation>
    </message>
    <message>
        <source>Delete profiling run {0}</source>
        <translation>删除性能分析运行记录 {0}</translation>
    </message>
    <message>
        <source>Deleted run {0}.</source>
        <translation>已删除运行记录 {0}。</translation>
    </message>
</context>
<context>
    <name>ProjectExplorerPanel</name>
    <message>
        <source>No project open. Use File ▸ New Project or Open Project.</source>
        <translation>没有打开的工程。请使用 文件 ▸ 新建工程 或 打开工程。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; — {1}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; — {1}</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
</context>
<context>
    <name>ProjectPage</name>
    <message>
        <source>Project Properties</source>
        <translation>工程属性</translation>
    </message>
    <message>
        <source>Name the profiling project and choose where its results are kept. Every run gets its own folder there and appears in the project's Profiling runs.</source>
        <translation>为性能分析工程命名，并选择结果的保存位置。每次运行都会在其中拥有单独的文件夹，并显示在工程的性能分析运行记录中。</translation>
    </message>
    <message>
        <source>letters, digits, '.', '_' or '-'</source>
        <translation>字母、数字、'.'、'_' 或 '-'</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Project name:</source>
        <translation>工程名称：</translation>
    </message>
    <message>
        <source>Location:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>a folder for the results</source>
        <translation>存放结果的文件夹</translation>
    </message>
    <message>
        <source>Runs are kept in {0}</source>
        <translation>运行记录保存在 {0}</translation>
    </message>
    <message>
        <source>Choose a location, or an app project on the next page (results then go under its .ascend-workbench folder).</source>
        <translation>请选择一个位置，或在下一页选择应用工程（结果将存放在其 .ascend-workbench 文件夹下）。</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>位置</translation>
    </message>
</context>
<context>
    <name>ProjectType</name>
    <message>
        <source>Ascend App</source>
        <translation>Ascend 应用</translation>
    </message>
    <message>
        <source>Ascend Operator</source>
        <translation>Ascend 算子</translation>
    </message>
    <message>
        <source>Ascend Training</source>
        <translation>Ascend 训练</translation>
    </message>
</context>
<context>
    <name>QtPrompter</name>
    <message>
        <source>The authenticity of host {0} ({1}) can't be established.

{2} key fingerprint:
{3}

Trust this key and connect? It will be remembered in Ascend Workbench's known_hosts file.</source>
        <translation>无法确认主机 {0}（{1}）的真实性。

{2} 密钥指纹：
{3}

信任此密钥并连接吗？它会被记录在 Ascend Workbench 的 known_hosts 文件中。</translation>
    </message>
    <message>
        <source>Unknown Host Key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>Passphrase for the key {0} (host {1}):</source>
        <translation>密钥 {0} 的口令（主机 {1}）：</translation>
    </message>
    <message>
        <source>Key Passphrase</source>
        <translation>密钥口令</translation>
    </message>
    <message>
        <source>Password for {0}@{1}:</source>
        <translation>{0}@{1} 的密码：</translation>
    </message>
    <message>
        <source>SSH Password</source>
        <translation>SSH 密码</translation>
    </message>
    <message>
        <source>(used for this connection only, never saved)</source>
        <translation>（仅用于本次连接，绝不保存）</translation>
    </message>
</context>
<context>
    <name>QueryPane</name>
    <message>
        <source>Slowest 20 OPs</source>
        <translation>最慢的 20 个算子</translation>
    </message>
    <message>
        <source>OPs on stream {stream} after step {step} slower than 10 µs</source>
        <translation>第 {step} 步之后流 {stream} 上慢于 10 µs 的算子</translation>
    </message>
    <message>
        <source>Time per task type</source>
        <translation>各任务类型耗时</translation>
    </message>
    <message>
        <source>Longest slices per lane</source>
        <translation>每条泳道最长的切片</translation>
    </message>
    <message>
        <source>Busiest slice names</source>
        <translation>总耗时最多的切片名称</translation>
    </message>
    <message>
        <source>the query is empty: write a SELECT statement</source>
        <translation>查询为空：请编写一条 SELECT 语句</translation>
    </message>
    <message>
        <source>one statement at a time: remove what follows the first ';'</source>
        <translation>一次只能执行一条语句：请删除第一个“;”之后的内容</translation>
    </message>
    <message>
        <source>only SELECT queries run over a report; this is a {0} statement (the report is read-only)</source>
        <translation>报告上只能运行 SELECT 查询；这是一条 {0} 语句（报告为只读）</translation>
    </message>
    <message>
        <source>reading or writing files is not allowed in a report query (the report is read-only)</source>
        <translation>报告查询中不允许读写文件（报告为只读）</translation>
    </message>
    <message>
        <source>Line {0}, column {1}: {2}</source>
        <translation>第 {0} 行，第 {1} 列：{2}</translation>
    </message>
    <message>
        <source>Examples…</source>
        <translation>示例…</translation>
    </message>
    <message>
        <source>Put an example query into the editor</source>
        <translation>将示例查询放入编辑器</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the query (Ctrl+Enter)</source>
        <translation>运行查询（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the running query</source>
        <translation>停止正在运行的查询</translation>
    </message>
    <message>
        <source>Show on Timeline</source>
        <translation>在时间线上显示</translation>
    </message>
    <message>
        <source>Select the slice of the chosen row in the timeline</source>
        <translation>在时间线中选中所选行对应的切片</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Export every row of the result to CSV or Excel</source>
        <translation>将结果的所有行导出为 CSV 或 Excel</translation>
    </message>
    <message>
        <source>SELECT name, dur_ns FROM ops ORDER BY dur_ns DESC LIMIT 20   — Ctrl+Enter runs</source>
        <translation>SELECT name, dur_ns FROM ops ORDER BY dur_ns DESC LIMIT 20   — 按 Ctrl+Enter 运行</translation>
    </message>
    <message>
        <source>Tables: {0}. Ctrl+Space completes names.</source>
        <translation>表：{0}。按 Ctrl+Space 补全名称。</translation>
    </message>
    <message>
        <source>preparing…</source>
        <translation>准备中…</translation>
    </message>
    <message>
        <source>Prepare SQL tables</source>
        <translation>准备 SQL 表</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>SQL query</source>
        <translation>SQL 查询</translation>
    </message>
    <message>
        <source>Query stopped.</source>
        <translation>查询已停止。</translation>
    </message>
    <message>
        <source>{0} of {1} rows kept ({2} s): add a LIMIT or narrow the query.</source>
        <translation>保留了 {1} 行中的 {0} 行（{2} 秒）：请添加 LIMIT 或缩小查询范围。</translation>
    </message>
    <message>
        <source>{0} rows ({1} s)</source>
        <translation>{0} 行（{1} 秒）</translation>
    </message>
    <message>
        <source>{0} rows</source>
        <translation>{0} 行</translation>
    </message>
    <message>
        <source>This row holds no slice of the timeline (it needs id, or lane / stream and start_ns).</source>
        <translation>此行不对应时间线上的切片（需要 id，或 lane / stream 和 start_ns）。</translation>
    </message>
    <message>
        <source>Export Query Result</source>
        <translation>导出查询结果</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel 工作簿 (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export query result to {0}</source>
        <translation>将查询结果导出到 {0}</translation>
    </message>
    <message>
        <source>Exported {0} rows to {1}</source>
        <translation>已将 {0} 行导出到 {1}</translation>
    </message>
</context>
<context>
    <name>RankBars</name>
    <message>
        <source>Time ({0}), {1}</source>
        <translation>时间 ({0})，{1}</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Rank {0} ({1})</source>
        <translation>Rank {0}（{1}）</translation>
    </message>
    <message>
        <source>Total: {0} {1}</source>
        <translation>合计：{0} {1}</translation>
    </message>
</context>
<context>
    <name>RankStepHeatmap</name>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>{0} (µs)</source>
        <translation>{0} (µs)</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>Rank {0} · step {1}
{2}: {3}</source>
        <translation>Rank {0} · 迭代 {1}
{2}：{3}</translation>
    </message>
</context>
<context>
    <name>ReportDocument</name>
    <message>
        <source>{0}: not collected. Collect it with {1}.</source>
        <translation>{0}：未采集。请使用 {1} 采集。</translation>
    </message>
    <message>
        <source>Event View</source>
        <translation>事件视图</translation>
    </message>
    <message>
        <source>Right-click a lane in the timeline ▸ Show in Event View.</source>
        <translation>在时间线中右键单击某一泳道 ▸ 在事件视图中显示。</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>AI Core Metrics</source>
        <translation>AI Core 指标</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>选区</translation>
    </message>
    <message>
        <source>Shift+drag across lanes in the timeline to select a time range.</source>
        <translation>在时间线中按住 Shift 拖动跨越泳道以选择时间范围。</translation>
    </message>
    <message>
        <source>Slice List</source>
        <translation>切片列表</translation>
    </message>
    <message>
        <source>This report has no timeline to draw: it holds tables only ({0}). A timeline comes with {1}.</source>
        <translation>此报告没有可绘制的时间线：只包含表格（{0}）。使用 {1} 可获得时间线。</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Analysis Summary</source>
        <translation>分析摘要</translation>
    </message>
    <message>
        <source>Baseline Comparison</source>
        <translation>基线比较</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Advisor</source>
        <translation>专家建议</translation>
    </message>
    <message>
        <source>Advise on {0}</source>
        <translation>对 {0} 给出专家建议</translation>
    </message>
    <message>
        <source>Advisor ({0})</source>
        <translation>专家建议 ({0})</translation>
    </message>
    <message>
        <source>{0}: the stretch is selected on the timeline.</source>
        <translation>{0}：已在时间线上选中该时间段。</translation>
    </message>
    <message>
        <source>{0} selected on the timeline.</source>
        <translation>已在时间线上选中 {0}。</translation>
    </message>
    <message>
        <source>The events of {0} are in the Event View.</source>
        <translation>{0} 的事件显示在事件视图中。</translation>
    </message>
    <message>
        <source>{0} is not in the OPs table</source>
        <translation>{0} 不在算子表中</translation>
    </message>
    <message>
        <source>{0}: row {1} of AI Core Metrics.</source>
        <translation>{0}：AI Core 指标的第 {1} 行。</translation>
    </message>
    <message>
        <source>{0} is not in the AI Core Metrics table</source>
        <translation>{0} 不在 AI Core 指标表中</translation>
    </message>
    <message>
        <source>{0}: row {1} of Statistics ▸ OPs.</source>
        <translation>{0}：统计信息 ▸ 算子的第 {1} 行。</translation>
    </message>
    <message>
        <source>{0} selected in the Communication tab.</source>
        <translation>已在通信标签页中选中 {0}。</translation>
    </message>
    <message>
        <source>{0} is not in the Communication tab</source>
        <translation>{0} 不在通信标签页中</translation>
    </message>
    <message>
        <source>{0} in the Steps tab.</source>
        <translation>{0} 显示在迭代标签页中。</translation>
    </message>
    <message>
        <source>{0} is not shown in a view of this report.</source>
        <translation>{0} 不在此报告的任何视图中显示。</translation>
    </message>
    <message>
        <source>Show in Graph</source>
        <translation>在计算图中显示</translation>
    </message>
    <message>
        <source>Centre and select {0} in an open model graph (or choose the model)</source>
        <translation>在已打开的模型计算图中居中并选中 {0}（或选择模型）</translation>
    </message>
    <message>
        <source>Events of {0} · {1}</source>
        <translation>{0} · {1} 的事件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>List All Occurrences</source>
        <translation>列出所有出现</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>持续时间</translation>
    </message>
    <message>
        <source>Model graph</source>
        <translation>模型计算图</translation>
    </message>
    <message>
        <source>double-click: Show in Graph</source>
        <translation>双击：在计算图中显示</translation>
    </message>
    <message>
        <source>Flow {0}</source>
        <translation>流 {0}</translation>
    </message>
    <message>
        <source>{0}. Double-click a name to list its slices.</source>
        <translation>{0}。双击名称可列出其切片。</translation>
    </message>
    <message>
        <source>Slices of the area: {0}</source>
        <translation>区域内的切片：{0}</translation>
    </message>
    <message>
        <source>Selected area</source>
        <translation>选中区域</translation>
    </message>
    <message>
        <source>Lanes</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Slices</source>
        <translation>切片数</translation>
    </message>
    <message>
        <source>{0} lanes, {1} → {2} ({3})</source>
        <translation>{0} 条泳道，{1} → {2}（{3}）</translation>
    </message>
    <message>
        <source>Slices named {0} in the area: {1}</source>
        <translation>区域内名为 {0} 的切片：{1}</translation>
    </message>
    <message>
        <source>Every occurrence of {0} in the report</source>
        <translation>报告中 {0} 的所有出现</translation>
    </message>
    <message>
        <source>Prepare the Steps view</source>
        <translation>准备迭代视图</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Prepare the Memory view</source>
        <translation>准备内存视图</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Prepare the Communication view</source>
        <translation>准备通信视图</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>The report does not record when step {0} ran: there is no span to select on the timeline.</source>
        <translation>报告没有记录迭代 {0} 的运行时间：时间线上没有可选中的时间段。</translation>
    </message>
    <message>
        <source>Step {0} selected on the timeline.</source>
        <translation>已在时间线上选中迭代 {0}。</translation>
    </message>
    <message>
        <source>the report has no timeline</source>
        <translation>报告没有时间线</translation>
    </message>
    <message>
        <source>{0} is not on the timeline</source>
        <translation>时间线上没有 {0}</translation>
    </message>
    <message>
        <source>{0}: row {1} of Statistics ▸ Op Info, selected on the timeline.</source>
        <translation>{0}：统计信息 ▸ 算子信息的第 {1} 行，已在时间线上选中。</translation>
    </message>
    <message>
        <source>{0}: row {1} of Statistics ▸ Op Info.</source>
        <translation>{0}：统计信息 ▸ 算子信息的第 {1} 行。</translation>
    </message>
    <message>
        <source>selected on the timeline</source>
        <translation>已在时间线上选中</translation>
    </message>
    <message>
        <source>List All Occurrences of {0}</source>
        <translation>列出 {0} 的所有出现</translation>
    </message>
    <message>
        <source>Open report {0}</source>
        <translation>打开报告 {0}</translation>
    </message>
    <message>
        <source>Cache {0} for fast re-opening</source>
        <translation>缓存 {0} 以便快速重新打开</translation>
    </message>
    <message>
        <source>Open Report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Opening {0} was cancelled</source>
        <translation>已取消打开 {0}</translation>
    </message>
    <message>
        <source>Rank {0}</source>
        <translation>Rank {0}</translation>
    </message>
    <message>
        <source>ACL API</source>
        <translation>ACL API</translation>
    </message>
    <message>
        <source>Runtime API</source>
        <translation>Runtime API</translation>
    </message>
    <message>
        <source>OS Runtime API</source>
        <translation>OS Runtime API</translation>
    </message>
    <message>
        <source>OPs</source>
        <translation>算子 (OPs)</translation>
    </message>
    <message>
        <source>Op Info</source>
        <translation>算子信息 (Op Info)</translation>
    </message>
</context>
<context>
    <name>ReportLoadingPage</name>
    <message>
        <source>Opening {0}</source>
        <translation>正在打开 {0}</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Reading {0}</source>
        <translation>正在读取 {0}</translation>
    </message>
    <message>
        <source>Building the timeline</source>
        <translation>正在构建时间线</translation>
    </message>
    <message>
        <source>Laying out the timeline</source>
        <translation>正在布局时间线</translation>
    </message>
    <message>
        <source>Preview: the first {0} of {1} ({2} events). The whole report replaces it when loading finishes ({3:.0f} % read).</source>
        <translation>预览：{1} 中的前 {0}（{2} 个事件）。加载完成后将替换为完整报告（已读取 {3:.0f} %）。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>ReportPicker</name>
    <message>
        <source>msprof (CANN 7/8)</source>
        <translation>msprof（CANN 7/8）</translation>
    </message>
    <message>
        <source>msprof (CANN 5/6)</source>
        <translation>msprof（CANN 5/6）</translation>
    </message>
    <message>
        <source>torch_npu / MindSpore</source>
        <translation>torch_npu / MindSpore</translation>
    </message>
    <message>
        <source>Cluster analysis (msprof-analyze)</source>
        <translation>集群分析（msprof-analyze）</translation>
    </message>
    <message>
        <source>Timeline JSON</source>
        <translation>时间线 JSON</translation>
    </message>
    <message>
        <source>Saved report</source>
        <translation>已保存的报告</translation>
    </message>
</context>
<context>
    <name>ReportPickerDialog</name>
    <message>
        <source>Open Report — {0}</source>
        <translation>打开报告 — {0}</translation>
    </message>
    <message>
        <source>{0} reports in {1}. Select one or more (Ctrl+click, Shift+click).</source>
        <translation>{1} 中有 {0} 份报告。可选择一份或多份（Ctrl+单击、Shift+单击）。</translation>
    </message>
    <message>
        <source>The search stopped after {0} folders: reports further down may be missing.</source>
        <translation>查找在 {0} 个文件夹后停止：更深处的报告可能未列出。</translation>
    </message>
    <message>
        <source>{0} folders looked like reports but could not be read.</source>
        <translation>{0} 个文件夹看似报告但无法读取。</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Collected</source>
        <translation>采集时间</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open each selected report in its own tab</source>
        <translation>在各自的标签页中打开每份选中的报告</translation>
    </message>
    <message>
        <source>Open as One Report</source>
        <translation>合并为一份报告打开</translation>
    </message>
    <message>
        <source>Merge the selected reports into one: tables per device, statistics recomputed, timelines combined</source>
        <translation>把选中的报告合并为一份：表格按设备区分，统计重新计算，时间线合并</translation>
    </message>
    <message>
        <source>Open Ranks Together</source>
        <translation>合并打开各 Rank</translation>
    </message>
    <message>
        <source>Analyse as Cluster</source>
        <translation>作为集群分析</translation>
    </message>
    <message>
        <source>Analyse the ranks of {0} as one cluster: slow ranks and links, communication, matrix</source>
        <translation>将 {0} 的各 Rank 作为一个集群分析：慢 Rank 与慢链路、通信、矩阵</translation>
    </message>
    <message>
        <source>Open the selected ranks of one job together as one merged report</source>
        <translation>将同一作业的所选 Rank 一起作为一份合并报告打开</translation>
    </message>
    <message>
        <source>Select two or more ranks of one job: reports side by side in one folder, each of its own rank</source>
        <translation>请选择同一作业的两个或更多 rank：位于同一文件夹中、各属一个 rank 的报告</translation>
    </message>
</context>
<context>
    <name>ReportWarning</name>
    <message>
        <source>{0}: {1} derived from {2} (Ascend Hardware slices matched by stream, task id and start) for {3} of {4} rows; {5} rows have no timeline partner and stay N/A</source>
        <translation>{0}：{1} 由 {2} 推导（按 stream、task id 与开始时间匹配 Ascend Hardware 切片），{4} 行中 {3} 行已推导；{5} 行在时间线上无对应项，保持 N/A</translation>
    </message>
    <message>
        <source>{0}: the file groups by the types that were N/A; computed from the OPs table instead</source>
        <translation>{0}：该文件按 N/A 类型分组；改为由 OPs 表计算</translation>
    </message>
    <message>
        <source>{0}: no OP Type in the args of {1} device tasks; their type is read from the op name ({2})</source>
        <translation>{0}：{1} 个设备任务的 args 中没有 OP Type；其类型从算子名称读取（{2}）</translation>
    </message>
    <message>
        <source>{0}: {1} slices on a device stream named like step markers ({2}) have no Task Type; kept as step markers, not OPs</source>
        <translation>{0}：设备 stream 上有 {1} 个名称类似迭代标记（{2}）的切片没有 Task Type；作为迭代标记保留，不计为算子</translation>
    </message>
    <message>
        <source>Timelines aligned on the start of step {0}; the reference is {1}</source>
        <translation>时间线按迭代 {0} 的开始对齐；参考为 {1}</translation>
    </message>
    <message>
        <source>Timelines aligned on the start of {0} (occurrence {1}); the reference is {2}</source>
        <translation>时间线按 {0} 的开始（第 {1} 次）对齐；参考为 {2}</translation>
    </message>
    <message>
        <source>{0}: shifted by {1} ns</source>
        <translation>{0}：平移 {1} ns</translation>
    </message>
    <message>
        <source>{0}: step {1} has no start time there; left unshifted</source>
        <translation>{0}：其中迭代 {1} 没有开始时间；未平移</translation>
    </message>
    <message>
        <source>{0}: occurrence {1} of {2} is not on its communication lanes (it starts there {3} times); left unshifted</source>
        <translation>{0}：其通信泳道上没有 {2} 的第 {1} 次开始（只开始了 {3} 次）；未平移</translation>
    </message>
</context>
<context>
    <name>ResultPanel</name>
    <message>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决方法：</translation>
    </message>
    <message>
        <source>Conversion succeeded</source>
        <translation>转换成功</translation>
    </message>
    <message>
        <source>Took {0} s on {1}.</source>
        <translation>在 {1} 上耗时 {0} s。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Conversion failed</source>
        <translation>转换失败</translation>
    </message>
    <message>
        <source>atc exited with status {0} on {1}. Every error is listed below.</source>
        <translation>atc 在 {1} 上以状态码 {0} 退出。所有错误均列在下方。</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Not converted: fix these first</source>
        <translation>未转换：请先修复以下问题</translation>
    </message>
</context>
<context>
    <name>RunConfigurationsDialog</name>
    <message>
        <source>Run Configurations — {0}</source>
        <translation>运行配置 — {0}</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>arguments as in a shell, e.g. --model resnet50.om --loop 10</source>
        <translation>按 shell 方式书写参数，例如 --model resnet50.om --loop 10</translation>
    </message>
    <message>
        <source>NAME=value, one per line</source>
        <translation>NAME=value，每行一个</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>远端</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>本地</translation>
    </message>
    <message>
        <source>e.g. 0,1 — sets ASCEND_RT_VISIBLE_DEVICES</source>
        <translation>例如 0,1 — 设置 ASCEND_RT_VISIBLE_DEVICES</translation>
    </message>
    <message>
        <source>default: the deployed folder (Remote) or the project (Local)</source>
        <translation>默认：部署目录（远端）或工程目录（本地）</translation>
    </message>
    <message>
        <source>Deploy the project before running</source>
        <translation>运行前先部署工程</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Executable:</source>
        <translation>可执行文件：</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>环境变量：</translation>
    </message>
    <message>
        <source>Run mode:</source>
        <translation>运行模式：</translation>
    </message>
    <message>
        <source>CANN machine:</source>
        <translation>CANN 机器：</translation>
    </message>
    <message>
        <source>Devices:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>工作目录：</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>{0}  ({1})</source>
        <translation>{0}  （{1}）</translation>
    </message>
    <message>
        <source>field 'args': {0}</source>
        <translation>字段 'args'：{0}</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <source>Run {0}</source>
        <translation>运行 {0}</translation>
    </message>
    <message>
        <source>Exited with status {0}.</source>
        <translation>已退出，状态码 {0}。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>RunWizard</name>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ShortcutOverlay</name>
    <message>
        <source>Timeline keys and mouse gestures</source>
        <translation>时间线的按键与鼠标操作</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Shortcuts of the main window:</source>
        <translation>主窗口的快捷键：</translation>
    </message>
</context>
<context>
    <name>SliceListPane</name>
    <message>
        <source>Shift+drag across lanes in the timeline to list the slices of a time range.</source>
        <translation>在时间线上按住 Shift 拖过各泳道，可列出一个时间范围内的切片。</translation>
    </message>
    <message>
        <source>Double-click a row to show the slice in the timeline.</source>
        <translation>双击一行可在时间线中显示该切片。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected cells as tab-separated text (Ctrl+C)</source>
        <translation>将选中的单元格复制为制表符分隔的文本（Ctrl+C）</translation>
    </message>
    <message>
        <source>{0} slices</source>
        <translation>{0} 个切片</translation>
    </message>
</context>
<context>
    <name>StepChart</name>
    <message>
        <source>Time ({0})</source>
        <translation>时间 ({0})</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Step {0}</source>
        <translation>迭代 {0}</translation>
    </message>
    <message>
        <source>Total: {0} {1}</source>
        <translation>合计：{0} {1}</translation>
    </message>
</context>
<context>
    <name>StepsPane</name>
    <message>
        <source>Steps</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>This report has no per-step breakdown.</source>
        <translation>此报告没有按迭代的时间分解。</translation>
    </message>
    <message>
        <source>Steps: {0} ({1}). Computing + Communication (Not Overlapped) + Free = the step's time. Click a bar to select the step on the timeline.</source>
        <translation>迭代：{0}（{1}）。计算 + 通信（未被掩盖）+ 空闲 = 迭代时间。单击柱形可在时间线上选中该迭代。</translation>
    </message>
</context>
<context>
    <name>StepsView</name>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Computing (µs)</source>
        <translation>计算 (µs)</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped) (µs)</source>
        <translation>通信（未被掩盖）(µs)</translation>
    </message>
    <message>
        <source>Overlapped (µs)</source>
        <translation>被掩盖 (µs)</translation>
    </message>
    <message>
        <source>Communication (µs)</source>
        <translation>通信 (µs)</translation>
    </message>
    <message>
        <source>Free (µs)</source>
        <translation>空闲 (µs)</translation>
    </message>
    <message>
        <source>Stage (µs)</source>
        <translation>阶段 (µs)</translation>
    </message>
    <message>
        <source>Bubble (µs)</source>
        <translation>气泡 (µs)</translation>
    </message>
    <message>
        <source>Communication (Not Overlapped, Exclude Receive) (µs)</source>
        <translation>通信（未被掩盖，不含接收）(µs)</translation>
    </message>
    <message>
        <source>Preparing (µs)</source>
        <translation>准备 (µs)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>read from step_trace_time.csv</source>
        <translation>读自 step_trace_time.csv</translation>
    </message>
    <message>
        <source>computed from the timeline's Overlap Analysis lanes</source>
        <translation>由时间线的 Overlap Analysis 泳道计算</translation>
    </message>
</context>
<context>
    <name>Summary</name>
    <message>
        <source>not present in this report</source>
        <translation>此报告中没有</translation>
    </message>
    <message>
        <source>not collected ({0})</source>
        <translation>未采集（{0}）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>simulated CANN toolkit</source>
        <translation>模拟 CANN 工具包</translation>
    </message>
    <message>
        <source>avg {0}, max {1}</source>
        <translation>平均 {0}，最大 {1}</translation>
    </message>
    <message>
        <source>Device {0}</source>
        <translation>设备 {0}</translation>
    </message>
    <message>
        <source>chip</source>
        <translation>芯片</translation>
    </message>
    <message>
        <source>AI Cores</source>
        <translation>AI Core 数</translation>
    </message>
    <message>
        <source>AI Vector cores</source>
        <translation>AI Vector 核数</translation>
    </message>
    <message>
        <source>AI CPUs</source>
        <translation>AI CPU 数</translation>
    </message>
    <message>
        <source>control CPUs</source>
        <translation>控制 CPU 数</translation>
    </message>
    <message>
        <source>AI Core MHz</source>
        <translation>AI Core 频率 MHz</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Profiling info</source>
        <translation>性能数据信息</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Elapsed time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>CANN version</source>
        <translation>CANN 版本</translation>
    </message>
    <message>
        <source>Collected by</source>
        <translation>采集方</translation>
    </message>
    <message>
        <source>Timeline events</source>
        <translation>时间线事件数</translation>
    </message>
    <message>
        <source>Flows</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Host system</source>
        <translation>主机系统</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Device info</source>
        <translation>设备信息</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>DDR/HBM read and write</source>
        <translation>DDR/HBM 读写</translation>
    </message>
    <message>
        <source>AI Core utilization</source>
        <translation>AI Core 利用率</translation>
    </message>
    <message>
        <source>Sample-based AI Core data</source>
        <translation>基于采样的 AI Core 数据</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
</context>
<context>
    <name>SummaryPage</name>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Check the command, then Convert. The log streams into the Output dock.</source>
        <translation>检查命令后点击“转换”。日志会实时输出到“输出”窗口。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the atc command line to the clipboard</source>
        <translation>将 atc 命令行复制到剪贴板</translation>
    </message>
    <message>
        <source>atc command</source>
        <translation>atc 命令</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Local file</source>
        <translation>本地文件</translation>
    </message>
    <message>
        <source>On the host</source>
        <translation>主机上</translation>
    </message>
    <message>
        <source>Downloaded to</source>
        <translation>下载到</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Uploaded:</source>
        <translation>已上传：</translation>
    </message>
    <message>
        <source>Produced:</source>
        <translation>已生成：</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>AIPP config</source>
        <translation>AIPP 配置</translation>
    </message>
    <message>
        <source>(written from the wizard)</source>
        <translation>（由向导生成）</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
</context>
<context>
    <name>SummaryView</name>
    <message>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Top 10 operators by total time (µs)</source>
        <translation>总耗时前 10 的算子 (µs)</translation>
    </message>
    <message>
        <source>Top operators: no operator statistics in this report</source>
        <translation>热点算子：此报告没有算子统计</translation>
    </message>
    <message>
        <source>AI Core utilization (sample-based)</source>
        <translation>AI Core 利用率（基于采样）</translation>
    </message>
</context>
<context>
    <name>TaskError</name>
    <message>
        <source>The job failed without saying why.</source>
        <translation>任务失败，但没有给出原因。</translation>
    </message>
</context>
<context>
    <name>TaskStatus</name>
    <message>
        <source>Reading {0}</source>
        <translation>正在读取 {0}</translation>
    </message>
    <message>
        <source>Building the timeline</source>
        <translation>正在构建时间线</translation>
    </message>
    <message>
        <source>Laying out the timeline</source>
        <translation>正在布局时间线</translation>
    </message>
    <message>
        <source>Writing the cache of {0} for fast re-opening</source>
        <translation>正在写入 {0} 的缓存，以便快速重新打开</translation>
    </message>
    <message>
        <source>Opening {0}</source>
        <translation>正在打开 {0}</translation>
    </message>
    <message>
        <source>Opening {0} ({1}/{2})</source>
        <translation>正在打开 {0}（{1}/{2}）</translation>
    </message>
    <message>
        <source>Opening base report {0}</source>
        <translation>正在打开基线报告 {0}</translation>
    </message>
    <message>
        <source>Opening current report {0}</source>
        <translation>正在打开当前报告 {0}</translation>
    </message>
    <message>
        <source>Comparing</source>
        <translation>正在对比</translation>
    </message>
    <message>
        <source>Exporting {0}</source>
        <translation>正在导出 {0}</translation>
    </message>
    <message>
        <source>Saving {0}</source>
        <translation>正在保存 {0}</translation>
    </message>
    <message>
        <source>Writing {0}</source>
        <translation>正在写入 {0}</translation>
    </message>
</context>
<context>
    <name>TasksPanel</name>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Clear Finished</source>
        <translation>清除已结束</translation>
    </message>
    <message>
        <source>Waiting…</source>
        <translation>等待中…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop this job (a remote command is killed on the host)</source>
        <translation>停止此任务（远端命令会在主机上被终止）</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>TextView</name>
    <message>
        <source>Cannot read {0}: {1}</source>
        <translation>无法读取 {0}：{1}</translation>
    </message>
    <message>
        <source>Read-only text view</source>
        <translation>只读文本视图</translation>
    </message>
    <message>
        <source>Read-only hex view</source>
        <translation>只读十六进制视图</translation>
    </message>
    <message>
        <source>showing the first {0} MiB of {1} MiB</source>
        <translation>显示前 {0} MiB（共 {1} MiB）</translation>
    </message>
</context>
<context>
    <name>TimelineColorDialog</name>
    <message>
        <source>Timeline Color</source>
        <translation>时间线颜色</translation>
    </message>
    <message>
        <source>Colour API slices by their share of total API time</source>
        <translation>按 API 耗时占比为 API 切片着色</translation>
    </message>
    <message>
        <source>Green below (%):</source>
        <translation>绿色低于 (%)：</translation>
    </message>
    <message>
        <source>Red from (%):</source>
        <translation>红色起始 (%)：</translation>
    </message>
    <message>
        <source>green &lt; {0}% ≤ yellow &lt; {1}% ≤ red</source>
        <translation>绿色 &lt; {0}% ≤ 黄色 &lt; {1}% ≤ 红色</translation>
    </message>
    <message>
        <source>The green threshold must not exceed the red one.</source>
        <translation>绿色阈值不能大于红色阈值。</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>Lanes</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Search slices by name</source>
        <translation>按名称搜索切片</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <source>Zoom the timeline to one step</source>
        <translation>将时间线缩放到某一迭代</translation>
    </message>
    <message>
        <source>Row height</source>
        <translation>行高</translation>
    </message>
    <message>
        <source>Height of one timeline row</source>
        <translation>时间线每行的高度</translation>
    </message>
    <message>
        <source>Expand Counters</source>
        <translation>展开计数器</translation>
    </message>
    <message>
        <source>One row per counter (compact) or one taller row per series</source>
        <translation>每个计数器一行（紧凑），或每个序列一行（较高）</translation>
    </message>
    <message>
        <source>Keys and mouse gestures of the timeline (?)</source>
        <translation>时间线的按键与鼠标操作（?）</translation>
    </message>
    <message>
        <source>Thread {0}</source>
        <translation>线程 {0}</translation>
    </message>
    <message>
        <source>Device {0} · {1}</source>
        <translation>设备 {0} · {1}</translation>
    </message>
    <message>
        <source>Host of Device {0} · {1}</source>
        <translation>设备 {0} 的主机 · {1}</translation>
    </message>
    <message>
        <source>Host · {0}</source>
        <translation>主机 · {0}</translation>
    </message>
    <message>
        <source>{0} · {1}</source>
        <translation>{0} · {1}</translation>
    </message>
    <message>
        <source>Report {0} · {1}</source>
        <translation>报告 {0} · {1}</translation>
    </message>
    <message>
        <source>{0} · {1} series</source>
        <translation>{0} · {1} 个序列</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>{0} · {1} (process {2}, thread {3})</source>
        <translation>{0} · {1}（进程 {2}，线程 {3}）</translation>
    </message>
    <message>
        <source>Counters</source>
        <translation>计数器</translation>
    </message>
    <message>
        <source>Show in Event View</source>
        <translation>在事件视图中显示</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <source>Pin to Top</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>Show All</source>
        <translation>全部显示</translation>
    </message>
    <message>
        <source>Collapse All</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <source>Expand All</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Step {0}</source>
        <translation>迭代 {0}</translation>
    </message>
    <message>
        <source>Zoom to step…</source>
        <translation>缩放到迭代…</translation>
    </message>
    <message>
        <source>Step {0} ({1})</source>
        <translation>迭代 {0}（{1}）</translation>
    </message>
    <message>
        <source>Timeline Color (API share of time): green &lt; {0}% ≤ yellow &lt; {1}% ≤ red</source>
        <translation>时间线颜色（API 耗时占比）：绿色 &lt; {0}% ≤ 黄色 &lt; {1}% ≤ 红色</translation>
    </message>
    <message>
        <source>Colour by slice name; pale: merged slices under a pixel</source>
        <translation>按切片名称着色；浅色：不足一像素的合并切片</translation>
    </message>
    <message>
        <source>A merged run is drawn in the colour of its longest slice; press ? for the keys.</source>
        <translation>合并的切片以其中最长切片的颜色绘制；按 ? 查看按键。</translation>
    </message>
    <message>
        <source>Start {0}</source>
        <translation>开始 {0}</translation>
    </message>
    <message>
        <source>End {0}</source>
        <translation>结束 {0}</translation>
    </message>
    <message>
        <source>Duration {0}</source>
        <translation>时长 {0}</translation>
    </message>
    <message>
        <source>{0} matches</source>
        <translation>{0} 处匹配</translation>
    </message>
    <message>
        <source>Zoom in / out at the mouse pointer</source>
        <translation>以鼠标指针为中心放大 / 缩小</translation>
    </message>
    <message>
        <source>Zoom at the mouse pointer</source>
        <translation>以鼠标指针为中心缩放</translation>
    </message>
    <message>
        <source>Ctrl+Wheel</source>
        <translation>Ctrl+滚轮</translation>
    </message>
    <message>
        <source>Pan left / right</source>
        <translation>向左 / 向右平移</translation>
    </message>
    <message>
        <source>Pan in time and across lanes</source>
        <translation>沿时间和泳道平移</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>拖动</translation>
    </message>
    <message>
        <source>Scroll the lanes</source>
        <translation>滚动泳道</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>Select a slice (its details in Properties)</source>
        <translation>选择切片（详情见“属性”）</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>Select a time range over the lanes it covers (Selection tab)</source>
        <translation>在所跨泳道上框选时间范围（见“选区”页）</translation>
    </message>
    <message>
        <source>Shift+Drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Zoom to a step (or choose it in the step list)</source>
        <translation>缩放到某一迭代（也可在迭代列表中选择）</translation>
    </message>
    <message>
        <source>Click the Steps row</source>
        <translation>单击“迭代”行</translation>
    </message>
    <message>
        <source>Fit the selected slice or range</source>
        <translation>适配所选切片或范围</translation>
    </message>
    <message>
        <source>Show the whole report</source>
        <translation>显示整个报告</translation>
    </message>
    <message>
        <source>Undo the last zoom</source>
        <translation>撤销上次缩放</translation>
    </message>
    <message>
        <source>Next / previous slice in the lane</source>
        <translation>泳道中的下一个 / 上一个切片</translation>
    </message>
    <message>
        <source>Next match of the search</source>
        <translation>下一个搜索匹配</translation>
    </message>
    <message>
        <source>Close this list, clear the range selection</source>
        <translation>关闭此列表，清除范围选区</translation>
    </message>
    <message>
        <source>Show or hide the keys and mouse gestures</source>
        <translation>显示或隐藏按键与鼠标操作</translation>
    </message>
    <message>
        <source>Timeline ▸ {0}</source>
        <translation>时间线 ▸ {0}</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>第 {0} 个，共 {1} 个</translation>
    </message>
</context>
<context>
    <name>_Opener</name>
    <message>
        <source>{0} — Structure</source>
        <translation>{0} — 结构</translation>
    </message>
    <message>
        <source>Model structure of {0}: {1}</source>
        <translation>{0} 的模型结构：{1}</translation>
    </message>
</context>
<context>
    <name>opener</name>
    <message>
        <source>Model structure of {0}</source>
        <translation>{0} 的模型结构</translation>
    </message>
</context>
</TS>