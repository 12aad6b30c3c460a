"""ResNet-18 for 32x32 inputs; the fused optimizer path uses apex when it is installed."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, 1, stride=stride, bias=False), nn.BatchNorm2d(planes)
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, blocks, num_classes=10):
        super().__init__()
        self.in_planes = 64
        self.conv1 = nn.Conv2d(3, 64, 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.layers = nn.Sequential(
            *[self._layer(p, n, s) for p, n, s in zip((64, 128, 256, 512), blocks, (1, 2, 2, 2))]
        )
        self.linear = nn.Linear(512, num_classes)

    def _layer(self, planes, n, stride):
        layers = []
        for s in [stride] + [1] * (n - 1):
            layers.append(BasicBlock(self.in_planes, planes, s))
            self.in_planes = planes
        return nn.Sequential(*layers)

    def forward(self, x):
        out = self.layers(F.relu(self.bn1(self.conv1(x))))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.linear(out)


def resnet18(num_classes=10):
    return ResNet([2, 2, 2, 2], num_classes)


def fused_optimizer(model, lr):
    """apex's FusedAdam on CUDA builds with apex; plain Adam elsewhere."""
    try:
        from apex.optimizers import FusedAdam

        return FusedAdam(model.parameters(), lr=lr)
    except ImportError:
        return torch.optim.Adam(model.parameters(), lr=lr)


if __name__ == "__main__":
    net = resnet18().cuda()
    print(net(torch.randn(2, 3, 32, 32, device="cuda")).shape)
