"""A small simulated PyTorch + torch_npu: what ``import torch`` / ``import torch_npu`` give a script on the
simulated CANN toolkit (``sim install`` puts thin ``torch`` and ``torch_npu`` packages under
``<version>/python/site-packages``, beside the simulated pyACL ``acl``; set_env.sh puts that folder on
``PYTHONPATH``). It is NOT PyTorch and NOT Huawei's torch_npu: ``torch.__version__`` is
``2.1.0+simulated``, ``torch_npu.__version__`` ``2.1.0.post3+simulated``, and the first import prints
``[simulated] torch/torch_npu runtime of the Ascend Workbench simulated toolkit`` on stderr.

It implements what a migrated GPU trainer uses (the sample resources/samples/gpu_pytorch_trainer after
PyTorch GPU2Ascend, and scripts like it): tensors backed by numpy (:mod:`.tensor`), ``nn`` layers
(:mod:`.nn`, :mod:`.functional`), ``optim.SGD`` / ``Adam`` (:mod:`.optim`), ``utils.data`` (:mod:`.data`),
``no_grad``, ``manual_seed``, ``save``, autocast and GradScaler, ``torch.cuda`` without CUDA and
``torch.npu`` after ``import torch_npu`` (:mod:`.devices`), ``torch_npu.contrib.transfer_to_npu``
(cuda mapped to npu) and ``torch_npu.profiler`` (:mod:`.profiler`). Without ``import torch_npu`` there is
no npu device, and ``.cuda()`` fails as on a machine without CUDA ("Torch not compiled with CUDA enabled").

Every op on an npu tensor reports its CANN kernel (:mod:`.runtime`): under the simulated msprof those
kernels, not a canned workload, are what the PROF_* folder holds; ``torch_npu.profiler`` writes them as
an ``*_ascend_pt`` folder. Numbers are simulated (see :mod:`.tensor`): the loss is computed, the gradients
are not.
"""

from __future__ import annotations

TORCH_PACKAGE = '''"""Simulated torch (Ascend Workbench's simulated CANN toolkit): this is NOT PyTorch.

A small numpy-backed imitation of the PyTorch API a migrated trainer uses; every op on an npu tensor
reports its CANN kernel to the simulated profiler. The implementation is ``workbench.simtoolkit.torchsim``.
"""

import sys as _sys

if {parent!r} not in _sys.path:
    _sys.path.append({parent!r})

from workbench.simtoolkit.torchsim import modules as _modules  # noqa: E402

_sys.modules[__name__] = _modules.install_torch({config!r})
'''

TORCH_NPU_PACKAGE = '''"""Simulated torch_npu (Ascend Workbench's simulated CANN toolkit): NOT Huawei's torch_npu.

Registers the npu device on the simulated torch (torch.npu, Tensor.npu, torch.device("npu:0")),
torch_npu.contrib.transfer_to_npu and torch_npu.profiler. The implementation is
``workbench.simtoolkit.torchsim``.
"""

import sys as _sys

if {parent!r} not in _sys.path:
    _sys.path.append({parent!r})

from workbench.simtoolkit.torchsim import modules as _modules  # noqa: E402

_sys.modules[__name__] = _modules.install_torch_npu({config!r})
'''

PACKAGES = {"torch": TORCH_PACKAGE, "torch_npu": TORCH_NPU_PACKAGE}


def package_texts(workbench_parent: str, config_path: str) -> dict[str, str]:
    """The installed ``torch/__init__.py`` and ``torch_npu/__init__.py`` (package name -> text)."""
    return {name: text.format(parent=workbench_parent, config=config_path) for name, text in PACKAGES.items()}
