<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>&lt;h3&gt;Ascend Workbench {0}&lt;/h3&gt;&lt;p&gt;A fast native workbench for Huawei Ascend NPU developers: model conversion, dump configuration, profiling views, baseline and accuracy comparison, driven on a remote Ascend machine over SSH.&lt;/p&gt;&lt;p&gt;Without Ascend hardware the CANN tools are played by the built-in &lt;b&gt;simulated toolkit&lt;/b&gt;, always labelled as simulated.&lt;/p&gt;&lt;p&gt;&lt;small&gt;Python {1} · Qt {2} · PySide6 {3}&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Ascend Workbench {0}&lt;/h3&gt;&lt;p&gt;面向华为昇腾 NPU 开发者的高速原生工作台：模型转换、Dump 配置、性能分析视图、基线比较与精度比对，通过 SSH 在远端昇腾设备上执行。&lt;/p&gt;&lt;p&gt;没有昇腾硬件时，CANN 工具由内置的&lt;b&gt;模拟工具包&lt;/b&gt;扮演，并始终标注为模拟。&lt;/p&gt;&lt;p&gt;&lt;small&gt;Python {1} · Qt {2} · PySide6 {3}&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>App</name>
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
</context>
<context>
    <name>DeploymentDialog</name>
    <message>
        <source>Deployment — {0}</source>
        <translation>部署 — {0}</translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation>部署</translation>
    </message>
    <message>
        <source>Demo host (simulated CANN)</source>
        <translation>演示主机（模拟 CANN）</translation>
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
        <source>Synced: {0}</source>
        <translation>已同步：{0}</translation>
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
        <source>{0} new, {1} changed, {2} unchanged; {3} only on the host (kept unless ticked).</source>
        <translation>{0} 个新增，{1} 个修改，{2} 个未变；{3} 个仅在主机上（除非勾选，否则保留）。</translation>
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
        <source>Copy the selected rows as tab-separated text</source>
        <translation>以制表符分隔的文本复制所选行</translation>
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
        <source>the ATC model converter wizard is not built yet</source>
        <translation>ATC 模型转换向导尚未实现</translation>
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
        <source>the acl.json dump editor is not built yet</source>
        <translation>acl.json Dump 配置编辑器尚未实现</translation>
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
        <source>the profiling wizard is not built yet</source>
        <translation>性能分析向导尚未实现</translation>
    </message>
    <message>
        <source>Merge Reports…</source>
        <translation>合并报告…</translation>
    </message>
    <message>
        <source>merging reports in the window is not built yet (use 'ascend-workbench report merge')</source>
        <translation>窗口内合并报告尚未实现（请使用 'ascend-workbench report merge'）</translation>
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
        <source>baseline comparison is not built yet</source>
        <translation>基线比较尚未实现</translation>
    </message>
    <message>
        <source>Model Accuracy Analyzer…</source>
        <translation>模型精度分析…</translation>
    </message>
    <message>
        <source>accuracy comparison is not built yet</source>
        <translation>精度比对尚未实现</translation>
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
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
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
        <source>Find next in Output</source>
        <translation>在输出中查找下一个</translation>
    </message>
    <message>
        <source>Find previous in Output</source>
        <translation>在输出中查找上一个</translation>
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
    <name>ProjectExplorerPanel</name>
    <message>
        <source>No project open. Use File ▸ New Project or Open Project.</source>
        <translation>没有打开的工程。请使用 文件 ▸ 新建工程 或 打开工程。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; — {1}&lt;br&gt;&lt;small&gt;{2}&lt;/small&gt;</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; — {1}&lt;br&gt;&lt;small&gt;{2}&lt;/small&gt;</translation>
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
        <source>Baseline comparison of two reports is not built yet.</source>
        <translation>两份报告的基线比较尚未实现。</translation>
    </message>
    <message>
        <source>Baseline Comparison</source>
        <translation>基线比较</translation>
    </message>
    <message>
        <source>Not available yet: baseline comparison is not built yet</source>
        <translation>暂不可用：基线比较尚未实现</translation>
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
        <source>Flow {0}</source>
        <translation>流 {0}</translation>
    </message>
    <message>
        <source>{0} lanes, {1} → {2} ({3})</source>
        <translation>{0} 条泳道，{1} → {2}（{3}）</translation>
    </message>
    <message>
        <source>Open report {0}</source>
        <translation>打开报告 {0}</translation>
    </message>
    <message>
        <source>Open Report</source>
        <translation>打开报告</translation>
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
        <source>Demo host (simulated CANN)</source>
        <translation>演示主机（模拟 CANN）</translation>
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
    <name>Summary</name>
    <message>
        <source>not collected ({0})</source>
        <translation>未采集（{0}）</translation>
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
        <source>Timeline Color (API share of time): green &lt; {0}% ≤ yellow &lt; {1}% ≤ red</source>
        <translation>时间线颜色（API 耗时占比）：绿色 &lt; {0}% ≤ 黄色 &lt; {1}% ≤ 红色</translation>
    </message>
    <message>
        <source>Colours: stable by slice name; grey = merged slices narrower than a pixel</source>
        <translation>颜色：按切片名称固定；灰色 = 合并后不足一个像素的切片</translation>
    </message>
    <message>
        <source>{0} matches</source>
        <translation>{0} 处匹配</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>第 {0} 个，共 {1} 个</translation>
    </message>
    <message>
        <source>Start: {0}</source>
        <translation>开始：{0}</translation>
    </message>
    <message>
        <source>End: {0}</source>
        <translation>结束：{0}</translation>
    </message>
    <message>
        <source>Current: {0}</source>
        <translation>当前：{0}</translation>
    </message>
</context>
</TS>